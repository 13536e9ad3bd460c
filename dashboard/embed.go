// Package dashboard holds Betty's web dashboard (a Vite + React app) and embeds its built
// files, so `betty serve` can serve them from the binary.
//
// `npm run build` (or `make dashboard`) writes dist/; dist/.gitkeep is committed so this
// package compiles before the first build, when the dashboard is simply empty.
package dashboard

import (
	"embed"
	"io/fs"
)

//go:embed all:dist
var dist embed.FS

// Dist returns the built dashboard, rooted at dist/ (index.html, assets/…).
func Dist() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		// fs.Sub fails only on an invalid path, and "dist" is a constant.
		panic(err)
	}
	return sub
}
