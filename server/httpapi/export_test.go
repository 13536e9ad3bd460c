package httpapi

// MissingMessages exposes the table to the external tests.
func MissingMessages() map[string]string { return missingMessages }
