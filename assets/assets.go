// Package assets embeds the files the web adapter serves as they are
// (style sheets, scripts, the start page), so the binary needs nothing
// beside it and nothing is loaded from a CDN at run time.
package assets

import "embed"

// Static holds the files under static/.
//
//go:embed static
var Static embed.FS
