package kb

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/sdk/client"
)

func newCmdFAQ(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "faq <command>",
		Short: "Add and edit the FAQs of a knowledge base",
		Long: `A FAQ is a named block of questions and answers in a knowledge base. It needs no reading:
agents can search it as soon as it is saved.`,
		Example: `  betty kb faq add "Product manuals" --name Delivery --text "Q: Weekends? A: Saturdays 9 to 1."
  betty kb faq edit 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10 --file delivery.txt`,
	}
	cmd.AddCommand(NewCmdFAQAdd(f, nil), NewCmdFAQEdit(f, nil))
	return cmd
}

// FAQOptions are the inputs of `betty kb faq add` and `betty kb faq edit`.
type FAQOptions struct {
	cmdutil.TeamOptions
	// KB is the knowledge base to add to (add); ID the FAQ to edit (edit).
	KB, ID string
	Name   string
	Text   string
	File   string
	Output cmdutil.Output
}

// faqFlags are the flags add and edit share.
func faqFlags(cmd *cobra.Command, opts *FAQOptions) {
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	faqName.Var(cmd.Flags(), &opts.Name, "name", "The FAQ's `name`, shown in lists")
	cmd.Flags().StringVar(&opts.Text, "text", "", "The questions and answers, as plain `text`")
	cmd.Flags().StringVar(&opts.File, "file", "", "Read the text from this `file` (- for standard input)")
	cmdutil.AddOutputFlags(cmd, &opts.Output)
}

// text reads the FAQ's text from --text or --file; "" when neither was given.
func (opts *FAQOptions) text() (string, error) {
	if opts.Text != "" && opts.File != "" {
		return "", cmdutil.FlagErrorf("give the text with --text or --file, not both")
	}
	text := opts.Text
	if opts.File != "" {
		var r io.Reader = opts.IO.In
		if opts.File != "-" {
			f, err := os.Open(opts.File)
			if err != nil {
				return "", cmdutil.FlagErrorf("%v", err)
			}
			defer f.Close()
			r = f
		}
		raw, err := io.ReadAll(io.LimitReader(r, 1<<20))
		if err != nil {
			return "", err
		}
		text = string(raw)
	}
	if text != "" {
		if err := faqText.Check(text); err != nil {
			return "", err
		}
	}
	return text, nil
}

// NewCmdFAQAdd returns `betty kb faq add`; runF replaces the run in tests.
func NewCmdFAQAdd(f *cmdutil.Factory, runF func(*FAQOptions) error) *cobra.Command {
	opts := &FAQOptions{TeamOptions: cmdutil.NewTeamOptions(f)}
	cmd := &cobra.Command{
		Use:   "add <knowledge base> --name <name> (--text <text> | --file <file>)",
		Short: "Add a FAQ to a knowledge base",
		Long:  `Add a FAQ — a named block of questions and answers — to a knowledge base. Prints its id.`,
		Example: `  betty kb faq add "Product manuals" --name Delivery --text "Q: Weekends? A: Saturdays 9 to 1."
  betty kb faq add "Product manuals" --name Returns --file returns.txt`,
		Args: cmdutil.ExactArgs(1, "give the knowledge base (id or name) to add the FAQ to"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.KB = args[0]
			if err := kbRef.Check(opts.KB); err != nil {
				return err
			}
			if opts.Name == "" {
				return cmdutil.FlagErrorf("give the FAQ a name with --name")
			}
			text, err := opts.text()
			if err != nil {
				return err
			}
			if text == "" {
				return cmdutil.FlagErrorf("give the questions and answers with --text or --file")
			}
			opts.Text, opts.File = text, ""
			if runF != nil {
				return runF(opts)
			}
			return runFAQAdd(cmd.Context(), opts)
		},
	}
	faqFlags(cmd, opts)
	return cmd
}

func runFAQAdd(ctx context.Context, opts *FAQOptions) error {
	c, team, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	kb, err := resolve(ctx, c, team, opts.KB)
	if err != nil {
		return err
	}
	faq, err := c.AddKnowledgeFAQ(ctx, kb.Id, opts.Name, opts.Text)
	if err != nil {
		return err
	}
	return printFAQ(opts, faq, "Added FAQ %q to %q.\n", faq.Name, kb.Name)
}

func printFAQ(opts *FAQOptions, faq client.KnowledgeFile, format string, args ...any) error {
	fmt.Fprintf(opts.IO.ErrOut, format, args...)
	if opts.Output.Format != "" {
		return opts.Output.Print(opts.IO, faq, nil)
	}
	_, err := fmt.Fprintln(opts.IO.Out, faq.Id)
	return err
}

// NewCmdFAQEdit returns `betty kb faq edit`; runF replaces the run in tests.
func NewCmdFAQEdit(f *cmdutil.Factory, runF func(*FAQOptions) error) *cobra.Command {
	opts := &FAQOptions{TeamOptions: cmdutil.NewTeamOptions(f)}
	cmd := &cobra.Command{
		Use:   "edit <faq id> [--name <name>] [--text <text> | --file <file>]",
		Short: "Edit a FAQ",
		Long: `Change a FAQ's name, its text, or both; what is not given stays. The FAQ is searchable
with its new text at once.`,
		Example: `  betty kb faq edit 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10 --text "Q: Sundays? A: Closed."
  betty kb faq edit 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10 --name "Opening hours"`,
		Args: cmdutil.ExactArgs(1, "give the id of the FAQ (see betty kb files)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			if err := cmdutil.ID.Check(opts.ID); err != nil {
				return err
			}
			text, err := opts.text()
			if err != nil {
				return err
			}
			if text == "" && opts.Name == "" {
				return cmdutil.FlagErrorf("give a new --name, a new text (--text or --file), or both")
			}
			opts.Text, opts.File = text, ""
			if runF != nil {
				return runF(opts)
			}
			return runFAQEdit(cmd.Context(), opts)
		},
	}
	faqFlags(cmd, opts)
	return cmd
}

func runFAQEdit(ctx context.Context, opts *FAQOptions) error {
	c, team, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	name, text := opts.Name, opts.Text
	if name == "" || text == "" {
		cur, err := c.KnowledgeFile(ctx, team, opts.ID)
		if err != nil {
			return err
		}
		if cur.Type != client.KnowledgeFileTypeFaq {
			return fmt.Errorf("%s is an uploaded file, not a FAQ: its text comes from the file", cur.Name)
		}
		if name == "" {
			name = cur.Name
		}
		if text == "" {
			text = cmdutil.Str(cur.Faq)
		}
	}
	faq, err := c.EditKnowledgeFAQ(ctx, opts.ID, name, text)
	if err != nil {
		return err
	}
	return printFAQ(opts, faq, "Saved FAQ %q.\n", faq.Name)
}
