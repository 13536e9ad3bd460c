package uploads

import (
	"encoding/base64"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/bettyhq/betty/server/errs"
)

// Metadata is what a client says about a new upload in tus's Upload-Metadata header.
type Metadata struct {
	FileName       string
	OrganizationID string
	Purpose        Purpose
	// FileType is the MIME type the client believes the file has ("" when not given).
	FileType string
	// Raw is the header as given, answered back by HEAD.
	Raw string
}

const metadataField = "header.Upload-Metadata"

// ParseMetadata reads an Upload-Metadata header: comma-separated "key base64(value)" pairs,
// filename, organizationId and purpose required, filetype optional, other keys ignored. A
// directory in the file name is dropped.
func ParseMetadata(header string) (Metadata, error) {
	values := map[string]string{}
	for _, pair := range strings.Split(header, ",") {
		key, encoded, _ := strings.Cut(strings.TrimSpace(pair), " ")
		if key == "" || strings.ContainsAny(key, " \t") {
			return Metadata{}, errs.InvalidField(metadataField, "Upload-Metadata must be comma-separated \"key base64(value)\" pairs.")
		}
		if _, dup := values[key]; dup {
			return Metadata{}, errs.InvalidField(metadataField, fmt.Sprintf("Upload-Metadata names %s twice.", key))
		}
		v, err := decodeBase64(strings.TrimSpace(encoded))
		if err != nil {
			return Metadata{}, errs.InvalidField(metadataField, fmt.Sprintf("The %s of Upload-Metadata is not base64.", key))
		}
		values[key] = v
	}
	m := Metadata{OrganizationID: values["organizationId"], Purpose: Purpose(values["purpose"]),
		FileType: values["filetype"], Raw: header}
	name := values["filename"]
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	m.FileName = strings.TrimSpace(name)
	switch {
	case m.FileName == "":
		return m, errs.InvalidField(metadataField, "Upload-Metadata needs the filename.")
	case !printable(m.FileName) || len(m.FileName) > 255:
		return m, errs.InvalidField(metadataField, "The filename must be at most 255 bytes of UTF-8 text without control characters.")
	case m.OrganizationID == "":
		return m, errs.InvalidField(metadataField, "Upload-Metadata needs the organizationId.")
	case !printable(m.OrganizationID) || len(m.OrganizationID) > 64:
		return m, errs.InvalidField(metadataField, "The organizationId is not an id.")
	case !m.Purpose.Valid():
		return m, errs.InvalidField(metadataField, "The purpose must be "+purposeList(Purposes)+".")
	case !printable(m.FileType) || len(m.FileType) > 255:
		return m, errs.InvalidField(metadataField, "The filetype must be a MIME type.")
	}
	return m, nil
}

// decodeBase64 reads standard base64, with or without padding.
func decodeBase64(s string) (string, error) {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		b, err = base64.RawStdEncoding.DecodeString(s)
	}
	return string(b), err
}

// printable is UTF-8 without control characters.
func printable(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r < 0x20 || (r >= 0x7f && r < 0xa0) {
			return false
		}
	}
	return true
}
