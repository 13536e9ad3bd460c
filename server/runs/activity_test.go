package runs_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/runs"
	"github.com/bettyhq/betty/server/store"
)

func TestStepCounts(t *testing.T) {
	on := func(id string) *string { return &id }
	ended := time.Now()
	calls := []store.CallPosition{
		{CallLogID: "a", CurrentNodeID: on("ask"), Path: store.Strings{"start", "ask"}},
		{CallLogID: "b", CurrentNodeID: on("ask"), Path: store.Strings{"start", "ask", "cp", "other", "again", "ask"}}, // came back
		{CallLogID: "c", Path: store.Strings{"start", "ask", "cp", "yes", "end"}, EndTime: &ended},
		// An ended call stands nowhere, whatever its last recorded node.
		{CallLogID: "d", CurrentNodeID: on("cp"), Path: store.Strings{"start", "ask", "cp"}, EndTime: &ended},
		{CallLogID: "e", Path: store.Strings{}}, // queued: not on the flow yet
	}
	want := []runs.StepCount{
		{NodeID: "again", Passed: 1},
		{NodeID: "ask", Now: 2, Passed: 2},
		{NodeID: "cp", Passed: 3},
		{NodeID: "end", Passed: 1},
		{NodeID: "other", Passed: 1},
		{NodeID: "start", Passed: 4},
		{NodeID: "yes", Passed: 1},
	}
	if got := runs.StepCounts(calls); !reflect.DeepEqual(got, want) {
		t.Fatalf("StepCounts:\n got %+v\nwant %+v", got, want)
	}
	if got := runs.StepCounts(nil); len(got) != 0 || got == nil {
		t.Fatalf("no calls: %#v, want an empty list", got)
	}
}
