package workflow

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

// ValueType is the kind of value a post-call field holds; it says how the value is read from
// the customer's words (see conversation.Analyze).
type ValueType string

const (
	ValueText   ValueType = "text"   // the customer's answer as said
	ValueYesNo  ValueType = "yes-no" // "yes" or "no"
	ValueEmail  ValueType = "email"  // an e-mail address, spoken ("ann at example dot com") or written
	ValuePhone  ValueType = "phone"  // a phone number, digits as said
	ValueDate   ValueType = "date"   // a day, a date or a time ("Tuesday", "March 3", "tomorrow at 10")
	ValueNumber ValueType = "number" // a number, in digits or words
	ValueChoice ValueType = "choice" // one of Options
)

// ValueTypes are the field types, in the order people pick them.
var ValueTypes = []ValueType{ValueText, ValueYesNo, ValueEmail, ValuePhone, ValueDate, ValueNumber, ValueChoice}

// Bounds of a workflow's post-call fields.
const (
	MaxFields        = 20  // fields per workflow
	MaxFieldName     = 40  // characters of a field's name
	MaxFieldQuestion = 300 // characters of its description
	MaxFieldOptions  = 20  // options of a choice
	MaxFieldOption   = 60  // characters of an option
)

// PostCallField is a value the workflow gathers during a call and the post-call analysis reads from
// the transcript: its name (snake_case, a column of the job's CSV export), its type and the
// question that gathers it (or a description of it): the analysis finds the agent's turn that
// asks it and reads the customer's answer after it.
type PostCallField struct {
	Name        string    `json:"name"`
	Type        ValueType `json:"type"`
	Description string    `json:"description"`
	Options     []string  `json:"options,omitempty"` // a choice's options
}

var fieldName = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// CheckPostCallFields answers what is wrong with a workflow's post-call fields, one violation per
// field at most, named postCallFields[<index>].<property> (postCallFields for the list).
func CheckPostCallFields(fs []PostCallField) []Violation {
	out := []Violation{}
	if len(fs) > MaxFields {
		return append(out, Violation{Field: "postCallFields", Rule: "too-many-fields",
			Message: fmt.Sprintf("A workflow may define at most %d post-call fields.", MaxFields)})
	}
	seen := map[string]bool{}
	for i, f := range fs {
		at := func(prop, rule, msg string) {
			out = append(out, Violation{Field: fmt.Sprintf("postCallFields[%d].%s", i, prop), Rule: rule, Message: msg, order: i})
		}
		switch {
		case f.Name == "":
			at("name", "field-name", "A post-call field needs a name.")
		case utf8.RuneCountInString(f.Name) > MaxFieldName:
			at("name", "field-name", fmt.Sprintf("A field's name has at most %d characters.", MaxFieldName))
		case !fieldName.MatchString(f.Name):
			at("name", "field-name", fmt.Sprintf("%q is not a snake_case name: use lower-case letters, digits and single underscores, starting with a letter (appointment_day).", f.Name))
		case seen[f.Name]:
			at("name", "field-name-taken", fmt.Sprintf("Another post-call field is named %q.", f.Name))
		case !knownValueType(f.Type):
			at("type", "field-type", fmt.Sprintf("%q is not a field type: use one of %s.", f.Type, typeList()))
		case strings.TrimSpace(f.Description) == "":
			at("description", "field-description", "Say what the field holds, or the question that gathers it: the analysis finds the answer by it.")
		case utf8.RuneCountInString(f.Description) > MaxFieldQuestion:
			at("description", "field-description", fmt.Sprintf("A field's description has at most %d characters.", MaxFieldQuestion))
		case f.Type == ValueChoice && (len(f.Options) < 2 || len(f.Options) > MaxFieldOptions):
			at("options", "field-options", fmt.Sprintf("A choice has 2 to %d options.", MaxFieldOptions))
		case f.Type != ValueChoice && len(f.Options) > 0:
			at("options", "field-options", "Only a choice has options.")
		default:
			if msg := badOptions(f.Options); msg != "" {
				at("options", "field-options", msg)
			}
		}
		seen[f.Name] = true
	}
	return out
}

func badOptions(opts []string) string {
	seen := map[string]bool{}
	for _, o := range opts {
		k := strings.ToLower(strings.TrimSpace(o))
		switch {
		case k == "":
			return "An option cannot be empty."
		case utf8.RuneCountInString(o) > MaxFieldOption:
			return fmt.Sprintf("An option has at most %d characters.", MaxFieldOption)
		case seen[k]:
			return fmt.Sprintf("The option %q is listed twice.", o)
		}
		seen[k] = true
	}
	return ""
}

func knownValueType(t ValueType) bool {
	for _, k := range ValueTypes {
		if k == t {
			return true
		}
	}
	return false
}

func typeList() string {
	s := make([]string, len(ValueTypes))
	for i, t := range ValueTypes {
		s[i] = string(t)
	}
	return strings.Join(s, ", ")
}

// CleanPostCallFields answers the fields with their texts trimmed (an option's inner spaces kept).
func CleanPostCallFields(fs []PostCallField) []PostCallField {
	if fs == nil {
		return nil
	}
	out := make([]PostCallField, len(fs))
	for i, f := range fs {
		f.Name, f.Description = strings.TrimSpace(f.Name), strings.Join(strings.Fields(f.Description), " ")
		f.Type = ValueType(strings.TrimSpace(string(f.Type)))
		if f.Options != nil {
			opts := make([]string, len(f.Options))
			for j, o := range f.Options {
				opts[j] = strings.TrimSpace(o)
			}
			f.Options = opts
		}
		out[i] = f
	}
	return out
}
