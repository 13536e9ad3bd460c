package httpapi

import (
	"reflect"
	"strings"
)

// MissingMessages exposes the table to the external tests.
func MissingMessages() map[string]string { return missingMessages }

// Built says whether an operation has a real handler: a method of one of the tag handler
// types Server embeds, rather than the 501 of Unimplemented beneath them.
func Built(operationID string) bool {
	name := strings.ToUpper(operationID[:1]) + operationID[1:]
	st := reflect.TypeOf(Server{})
	for i := range st.NumField() {
		f := st.Field(i)
		if f.Name == "fallback" {
			continue
		}
		if _, ok := f.Type.MethodByName(name); ok {
			return true
		}
	}
	return false
}
