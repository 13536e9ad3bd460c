package cmdutil

import (
	"fmt"

	"github.com/spf13/pflag"
)

// EnumVar adds a flag whose value must be one of values; another value is refused while the
// flags are parsed, naming the values allowed. *p stays "" when the flag is not given.
func EnumVar[T ~string](fs *pflag.FlagSet, p *T, name, usage string, values ...T) {
	fs.Var(&enumValue[T]{p: p, values: values}, name, usage)
}

type enumValue[T ~string] struct {
	p      *T
	values []T
}

func (v *enumValue[T]) String() string { return string(*v.p) }
func (v *enumValue[T]) Type() string   { return "string" }
func (v *enumValue[T]) Set(s string) error {
	for _, want := range v.values {
		if string(want) == s {
			*v.p = want
			return nil
		}
	}
	return fmt.Errorf("want %s", OneOf(v.values...))
}
