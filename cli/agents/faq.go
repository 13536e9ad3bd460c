package agents

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"
	"gopkg.in/yaml.v3"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"

	"github.com/bettyhq/betty/internal/plural"
)

// NewCmdFAQ returns `betty agents faq` and its verbs.
func NewCmdFAQ(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "faq <command>",
		Short: "An agent's questions and answers",
		Long: `Show and set the FAQ of an agent: questions callers ask, each with the answer the agent
gives. A question that begins with a bracketed number ("[1] What are your hours?") is shown in
that order, before the others, which are shown alphabetically.`,
		Example: `  betty agents faq list 0192f1a4-9e3f-7d70-8c83-5b2a4f9e1d32
  betty agents faq set 0192f1a4-9e3f-7d70-8c83-5b2a4f9e1d32 --file faq.yaml --clear`,
	}
	cmd.AddCommand(NewCmdFAQList(f, nil), NewCmdFAQSet(f, nil))
	return cmd
}

// FAQListOptions are the inputs of `betty agents faq list`.
type FAQListOptions struct {
	cmdutil.TeamOptions
	ID     string
	Output cmdutil.Output
}

// NewCmdFAQList returns `betty agents faq list`; runF replaces the run in tests.
func NewCmdFAQList(f *cmdutil.Factory, runF func(*FAQListOptions) error) *cobra.Command {
	opts := &FAQListOptions{TeamOptions: cmdutil.NewTeamOptions(f)}
	cmd := &cobra.Command{
		Use:   "list <agent-id>",
		Short: "Show an agent's FAQ",
		Long: `Show the questions and answers of an agent in display order, without their order prefixes.
--json prints the FAQ object as the API keeps it, keys with their prefixes, which betty agents
faq set --file reads back. Any member of the team may do this.`,
		Example: `  betty agents faq list 0192f1a4-9e3f-7d70-8c83-5b2a4f9e1d32
  betty agents faq list 0192f1a4-9e3f-7d70-8c83-5b2a4f9e1d32 --json > faq.json`,
		Aliases: []string{"ls"},
		Args:    cmdutil.ExactArgs(1, "give the id of the agent (see `betty agents list`)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			if err := cmdutil.ID.Check(opts.ID); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return runFAQList(cmd.Context(), opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runFAQList(ctx context.Context, opts *FAQListOptions) error {
	c, team, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	a, err := c.Agent(ctx, team, opts.ID)
	if err != nil {
		return err
	}
	return printFAQ(opts.IO, opts.Output, a.Faq)
}

// printFAQ prints a FAQ as a table in display order, or the object in the format asked.
func printFAQ(s *cmdutil.IOStreams, o cmdutil.Output, faq client.AgentFaq) error {
	if faq == nil {
		faq = client.AgentFaq{}
	}
	return o.Print(s, faq, func(t *cmdutil.Table) {
		t.Header("QUESTION", "ANSWER")
		for _, p := range betty.FAQPairs(faq) {
			t.Row(p.Question, p.Answer)
		}
	})
}

// FAQSetOptions are the inputs of `betty agents faq set`.
type FAQSetOptions struct {
	cmdutil.TeamOptions
	ID     string
	File   string
	Clear  bool
	FAQ    client.AgentFaq // read from File
	Output cmdutil.Output
}

// NewCmdFAQSet returns `betty agents faq set`; runF replaces the run in tests.
func NewCmdFAQSet(f *cmdutil.Factory, runF func(*FAQSetOptions) error) *cobra.Command {
	opts := &FAQSetOptions{TeamOptions: cmdutil.NewTeamOptions(f)}
	cmd := &cobra.Command{
		Use:   "set <agent-id> --file <faq.yaml>",
		Short: "Set an agent's FAQ from a file",
		Long: `Write the questions and answers of a YAML or JSON file into an agent's FAQ. Questions the
agent already has get the new answers and new ones are added; with --clear the FAQ becomes
exactly the file's (--clear without --file empties it). An agent has at most 200 questions.

The file is either a mapping of questions to answers, whose keys are kept as written:

  "[1] What are your opening hours?": Monday to Friday, 9am to 5pm.
  "[2] Do you deliver?": Yes, within 20 miles.

or a list, whose questions are numbered in the file's order ("[1] ", "[2] "… unless a
question already begins with a bracketed number):

  - question: What are your opening hours?
    answer: Monday to Friday, 9am to 5pm.

A list is numbered from 1 again, so give --clear to replace a FAQ rather than merge into it.

Prints the FAQ as it is then. Any member but read-only may do this.`,
		Example: `  betty agents faq set 0192f1a4-9e3f-7d70-8c83-5b2a4f9e1d32 --file faq.yaml
  betty agents faq set 0192f1a4-9e3f-7d70-8c83-5b2a4f9e1d32 --file faq.json --clear
  betty agents faq set 0192f1a4-9e3f-7d70-8c83-5b2a4f9e1d32 --clear`,
		Args: cmdutil.ExactArgs(1, "give the id of the agent (see `betty agents list`)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			if err := cmdutil.ID.Check(opts.ID); err != nil {
				return err
			}
			if opts.File == "" && !opts.Clear {
				return cmdutil.FlagErrorf("give the questions and answers with --file <faq.yaml>, or --clear to empty the FAQ")
			}
			opts.FAQ = client.AgentFaq{}
			if opts.File != "" {
				raw, err := readFile(opts.IO, opts.File)
				if err != nil {
					return err
				}
				if opts.FAQ, err = ParseFAQ(raw); err != nil {
					return cmdutil.FlagErrorf("%s: %v", opts.File, err)
				}
			}
			if runF != nil {
				return runF(opts)
			}
			return runFAQSet(cmd.Context(), opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	cmd.Flags().StringVarP(&opts.File, "file", "f", "", "A YAML or JSON `file` of questions and answers (- for stdin)")
	cmd.Flags().BoolVar(&opts.Clear, "clear", false, "Replace the whole FAQ instead of merging into it")
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runFAQSet(ctx context.Context, opts *FAQSetOptions) error {
	c, team, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	a, err := c.SetAgentFAQ(ctx, team, opts.ID, opts.FAQ, opts.Clear)
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "The FAQ of agent %q (%s) has %s.\n", a.Name, a.Id, plural.Count(len(a.Faq), "question", "questions"))
	return printFAQ(opts.IO, opts.Output, a.Faq)
}

// maxQuestion is the longest question the server keeps, in characters.
const maxQuestion = 500

// ParseFAQ reads a FAQ file: a YAML (or JSON) mapping of questions to answers, kept as
// written, or a list of {question, answer}, numbered in order.
func ParseFAQ(raw []byte) (client.AgentFaq, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		return nil, err
	}
	if len(doc.Content) == 0 {
		return nil, fmt.Errorf("no questions")
	}
	root := doc.Content[0]
	var pairs []betty.FAQPair
	switch root.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(root.Content); i += 2 {
			k, v := root.Content[i], root.Content[i+1]
			if k.Kind != yaml.ScalarNode || v.Kind != yaml.ScalarNode {
				return nil, fmt.Errorf("line %d: want a question and its answer as text", k.Line)
			}
			pairs = append(pairs, betty.FAQPair{Key: k.Value, Question: k.Value, Answer: v.Value})
		}
	case yaml.SequenceNode:
		for _, item := range root.Content {
			var p struct{ Question, Answer string }
			if err := item.Decode(&p); err != nil || item.Kind != yaml.MappingNode {
				return nil, fmt.Errorf("line %d: want a question and an answer", item.Line)
			}
			pairs = append(pairs, betty.FAQPair{Key: betty.NumberedQuestion(len(pairs)+1, p.Question), Question: p.Question, Answer: p.Answer})
		}
	default:
		return nil, fmt.Errorf("want a mapping of questions to answers, or a list of questions and answers")
	}
	if len(pairs) > maxFAQ {
		return nil, fmt.Errorf("%d questions, an agent has at most %d", len(pairs), maxFAQ)
	}
	faq := make(client.AgentFaq, len(pairs))
	for _, p := range pairs {
		switch {
		case strings.TrimSpace(p.Question) == "":
			return nil, fmt.Errorf("a question is empty")
		case utf8.RuneCountInString(p.Key) > maxQuestion:
			return nil, fmt.Errorf("question %q…: want at most %d characters", string([]rune(p.Question)[:40]), maxQuestion)
		case utf8.RuneCountInString(p.Answer) > Answer.Max:
			return nil, fmt.Errorf("the answer to %q: want at most %d characters", p.Question, Answer.Max)
		}
		if _, dup := faq[p.Key]; dup {
			return nil, fmt.Errorf("question %q is there twice", p.Key)
		}
		faq[p.Key] = p.Answer
	}
	return faq, nil
}
