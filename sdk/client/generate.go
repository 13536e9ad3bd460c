// Package client is the HTTP client generated from openapi.yaml by oapi-codegen. Never edit
// client.gen.go; run make generate. Use the betty package (sdk/) for a friendlier client.
package client

//go:generate go tool oapi-codegen -config oapi-codegen.yaml ../../openapi.yaml
