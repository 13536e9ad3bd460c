// Temporary: loads an OpenAPI document with kin-openapi and validates it.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

func main() {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromFile(os.Args[1])
	if err != nil {
		fmt.Println("load:", err)
		os.Exit(1)
	}
	if err := doc.Validate(context.Background()); err != nil {
		fmt.Println("validate:", err)
		os.Exit(1)
	}
	if _, err := gorillamux.NewRouter(doc); err != nil {
		fmt.Println("router:", err)
		os.Exit(1)
	}
}
