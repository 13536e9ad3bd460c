package cmdutil

import (
	"fmt"
	"iter"
	"strconv"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// maxPageSize is the most items the API serves per page.
const maxPageSize = 100

// AddLimitFlag adds --limit to a list command.
func AddLimitFlag(cmd *cobra.Command, limit *int) {
	*limit = 30
	cmd.Flags().VarP(&intValue{p: limit, min: 0}, "limit", "L", "Maximum number of items to fetch (0 for all)")
}

// IntVarP adds a whole-number flag that refuses values outside min…max (max 0: no bound)
// while the flags are parsed.
func IntVarP(fs *pflag.FlagSet, p *int, name, short string, value, min, max int, usage string) {
	*p = value
	fs.VarP(&intValue{p: p, min: min, max: max}, name, short, usage)
}

type intValue struct {
	p        *int
	min, max int
}

func (v *intValue) String() string { return strconv.Itoa(*v.p) }
func (v *intValue) Type() string   { return "int" }
func (v *intValue) Set(s string) error {
	n, err := strconv.Atoi(s)
	switch {
	case v.max > 0 && (err != nil || n < v.min || n > v.max):
		return fmt.Errorf("want a number from %d to %d", v.min, v.max)
	case err != nil || n < v.min:
		return fmt.Errorf("want a number, %d or more", v.min)
	}
	*v.p = n
	return nil
}

// PageSize is the page size to ask for when at most limit items are wanted (0: all).
func PageSize(limit int) int {
	if limit <= 0 || limit > maxPageSize {
		return maxPageSize
	}
	return limit
}

// Collect gathers up to limit items of a paginated list (every one when limit is 0). The
// result is never nil, so an empty list prints as [] in JSON.
func Collect[T any](seq iter.Seq2[T, error], limit int) ([]T, error) {
	items := []T{}
	for item, err := range seq {
		if err != nil {
			return nil, err
		}
		items = append(items, item)
		if limit > 0 && len(items) >= limit {
			break
		}
	}
	return items, nil
}

// CompleteArg completes the positional argument at pos (0-based) with values, and nothing
// else with files.
func CompleteArg[T ~string](pos int, values ...T) cobra.CompletionFunc {
	return func(_ *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) == pos {
			completions := make([]cobra.Completion, len(values))
			for i, v := range values {
				completions[i] = string(v)
			}
			return completions, cobra.ShellCompDirectiveNoFileComp
		}
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
}
