package main

import (
	"bytes"
	"os/exec"
	"strings"
)

// conversationRows runs BenchmarkConversation (server/conversation) and reports the turns a
// second the conversation engine holds through the local language back-end on a realistic
// flow, its State going through JSON at every event.
func conversationRows() []row {
	cmd := exec.Command("go", "test", "-run", "^$", "-bench", "^BenchmarkConversation$", "-benchtime", "2s", "./server/conversation")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	for _, line := range strings.Split(out.String(), "\n") {
		if !strings.HasPrefix(line, "BenchmarkConversation") {
			continue
		}
		f := strings.Fields(line)
		for i := 1; i < len(f); i++ {
			if f[i] == "turns/s" {
				return []row{{"conversation turns (local back-end)", f[i-1] + " turns/s", "one core; renewal flow of 4 branches, State through JSON each event; " + f[2] + " ns a call"}}
			}
		}
	}
	note := "go test -bench BenchmarkConversation ./server/conversation failed"
	if err != nil {
		note += ": " + err.Error()
	}
	return []row{{"conversation turns (local back-end)", "not measured", note}}
}

// turnLatencyRows runs BenchmarkTurnLatency (server/runs) and reports Betty's own
// part of the wait after the customer's last word with a language model: from call.heard to
// the first speak command, less the model's time to its first sentence (target: p95 under
// 50 ms).
func turnLatencyRows() []row {
	const name = "turn latency overhead (language model)"
	cmd := exec.Command("go", "test", "-run", "^$", "-bench", "^BenchmarkTurnLatency$", "./server/runs")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	for _, line := range strings.Split(out.String(), "\n") {
		if !strings.HasPrefix(line, "BenchmarkTurnLatency") {
			continue
		}
		m := map[string]string{}
		f := strings.Fields(line)
		for i := 1; i < len(f); i++ {
			m[f[i]] = f[i-1]
		}
		if m["overhead-p95-ms"] != "" {
			return []row{{name, "p50 " + m["overhead-p50-ms"] + " ms, p95 " + m["overhead-p95-ms"] + " ms",
				"call.heard to the first speak command through the driver on SQLite, less the fake model's " + m["model-first-sentence-ms"] + " ms to its first sentence; target p95 < 50 ms"}}
		}
	}
	note := "go test -bench BenchmarkTurnLatency ./server/runs failed"
	if err != nil {
		note += ": " + err.Error()
	}
	return []row{{name, "not measured", note}}
}
