package cmdutil

import (
	"errors"
	"iter"
	"strconv"

	"github.com/spf13/cobra"
)

// maxPageSize is the most items the API serves per page.
const maxPageSize = 100

// AddLimitFlag adds --limit to a list command.
func AddLimitFlag(cmd *cobra.Command, limit *int) {
	*limit = 30
	cmd.Flags().VarP((*limitValue)(limit), "limit", "L", "Maximum number of items to fetch (0 for all)")
}

type limitValue int

func (v *limitValue) String() string { return strconv.Itoa(int(*v)) }
func (v *limitValue) Type() string   { return "int" }
func (v *limitValue) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return errors.New("want a number, 0 or more")
	}
	*v = limitValue(n)
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
func CompleteArg(pos int, values ...string) cobra.CompletionFunc {
	return func(_ *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) == pos {
			return values, cobra.ShellCompDirectiveNoFileComp
		}
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
}
