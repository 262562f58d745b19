package web

import "os"

// SpillUploadsTo points the process's temporary files (TMPDIR: the HTTP
// server spills large multipart uploads there) at dir, the run's directory
// among the uploaded files (app.Core.TempDir), where the file sweep finds
// what a crash leaves. The returned func restores TMPDIR and removes dir.
// An empty dir changes nothing.
func SpillUploadsTo(dir string) (restore func()) {
	if dir == "" {
		return func() {}
	}
	old, had := os.LookupEnv("TMPDIR")
	os.Setenv("TMPDIR", dir)
	return func() {
		if had {
			os.Setenv("TMPDIR", old)
		} else {
			os.Unsetenv("TMPDIR")
		}
		os.RemoveAll(dir)
	}
}
