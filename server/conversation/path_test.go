package conversation_test

import (
	"context"
	"reflect"

	"github.com/bettyhq/betty/server/conversation"
	"testing"
)

// The path a call takes is kept in its state: every node entered, in order, a node entered
// again after others listed again; Current is where it stands while it goes on.
func TestPathFollowsTheCall(t *testing.T) {
	e := engine(conversation.Deps{})
	s := setup(renewal())
	st, _, err := e.Start(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	r, _ := e.Result(st)
	if want := []string{"start", "ask", "cp"}; !reflect.DeepEqual(r.Path, want) || r.Current != "cp" {
		t.Fatalf("after the greeting: path %v current %q, want %v at cp", r.Path, r.Current, want)
	}
	_, st = call(t, e, s, "What's the weather like?", "yeah sure")
	r, _ = e.Result(st)
	want := []string{"start", "ask", "cp", "other", "again", "ask", "cp", "yes", "stage", "thanks", "end-yes"}
	if !reflect.DeepEqual(r.Path, want) {
		t.Fatalf("path %v, want %v", r.Path, want)
	}
	if r.Current != "" || !r.Ended {
		t.Fatalf("an ended call stands nowhere: current %q ended %v", r.Current, r.Ended)
	}
}
