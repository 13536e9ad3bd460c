// Package api is generated from openapi.yaml by oapi-codegen: the strict Echo server interface,
// the request and response types and the embedded spec. Never edit api.gen.go; run make generate.
package api

//go:generate go tool oapi-codegen -config oapi-codegen.yaml ../../openapi.yaml
