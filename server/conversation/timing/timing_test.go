package timing

import (
	"testing"
	"time"
)

func TestSpeaking(t *testing.T) {
	if Speaking("") != 0 || Next(3*time.Second, "") != 3*time.Second {
		t.Fatal("no text takes no time")
	}
	if got := Speaking("Yes."); got != Base+4*PerChar {
		t.Fatalf("Speaking(Yes.) = %s", got)
	}
	if got := Speaking("héllo"); got != Base+5*PerChar {
		t.Fatalf("characters, not bytes: %s", got)
	}
	if got := Next(time.Second, "Yes."); got != time.Second+Speaking("Yes.")+Gap {
		t.Fatalf("Next = %s", got)
	}
}
