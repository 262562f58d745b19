package api2

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"sync"

	"github.com/gofiber/fiber/v2"
)

// The document is assembled from openapi/base.json and one fragment per
// area (openapi/<area>.json, each with "paths" and optional
// "components.schemas"), so areas never edit one shared file.
//
//go:embed openapi/*.json
var openapiFiles embed.FS

type fragment struct {
	Paths      map[string]any `json:"paths"`
	Components struct {
		Schemas map[string]any `json:"schemas"`
	} `json:"components"`
}

var buildDoc = sync.OnceValues(func() ([]byte, error) {
	var doc map[string]any
	base, err := openapiFiles.ReadFile("openapi/base.json")
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(base, &doc); err != nil {
		return nil, fmt.Errorf("openapi/base.json: %w", err)
	}
	paths, _ := doc["paths"].(map[string]any)
	components, _ := doc["components"].(map[string]any)
	schemas, _ := components["schemas"].(map[string]any)
	names, _ := fs.Glob(openapiFiles, "openapi/*.json")
	for _, name := range names {
		if name == "openapi/base.json" {
			continue
		}
		data, _ := openapiFiles.ReadFile(name)
		var f fragment
		if err := json.Unmarshal(data, &f); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		for p := range f.Paths {
			if _, dup := paths[p]; dup {
				return nil, fmt.Errorf("%s: path %s is also in another fragment", name, p)
			}
		}
		maps.Copy(paths, f.Paths)
		maps.Copy(schemas, f.Components.Schemas)
	}
	doc["paths"] = paths
	return json.Marshal(doc)
})

func serveOpenAPI(c *fiber.Ctx) error {
	doc, err := buildDoc()
	if err != nil {
		return err
	}
	c.Type("json")
	return c.Send(doc)
}
