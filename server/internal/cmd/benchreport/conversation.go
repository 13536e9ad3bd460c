package main

import (
	"bytes"
	"os/exec"
	"strings"
)

// benchMetrics runs one Go benchmark (name, in pkg) and answers its line's metrics by unit
// ("ns/op", "turns/s", …); nil when the line is missing, with what went wrong.
func benchMetrics(name, pkg string, args ...string) (map[string]string, string) {
	cmd := exec.Command("go", append([]string{"test", "-run", "^$", "-bench", "^" + name + "$"}, append(args, pkg)...)...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	for _, line := range strings.Split(out.String(), "\n") {
		if !strings.HasPrefix(line, name) {
			continue
		}
		m := map[string]string{}
		f := strings.Fields(line)
		for i := 2; i < len(f); i++ {
			m[f[i]] = f[i-1]
		}
		return m, "the benchmark reported no such metric"
	}
	note := "go test -bench " + name + " " + pkg + " failed"
	if err != nil {
		note += ": " + err.Error()
	}
	return nil, note
}

// conversationRows runs BenchmarkConversation (server/conversation) and reports the turns a
// second the conversation engine holds through the local language back-end on a realistic
// flow, its State going through JSON at every event.
func conversationRows() []row {
	const name = "conversation turns (local back-end)"
	m, note := benchMetrics("BenchmarkConversation", "./server/conversation", "-benchtime", "2s")
	if m["turns/s"] == "" {
		return []row{{name, "not measured", note}}
	}
	return []row{{name, m["turns/s"] + " turns/s", "one core; renewal flow of 4 branches, State through JSON each event; " + m["ns/op"] + " ns a call"}}
}

// turnLatencyRows runs BenchmarkTurnLatency (server/runs) and reports Betty's own part of the
// wait after the customer's last word with a language model: from call.heard to the first
// speak command, less the model's time to its first sentence (target: p95 under 50 ms).
func turnLatencyRows() []row {
	const name = "turn latency overhead (language model)"
	m, note := benchMetrics("BenchmarkTurnLatency", "./server/runs")
	if m["overhead-p95-ms"] == "" {
		return []row{{name, "not measured", note}}
	}
	return []row{{name, "p50 " + m["overhead-p50-ms"] + " ms, p95 " + m["overhead-p95-ms"] + " ms",
		"call.heard to the first speak command through the driver on SQLite, less the fake model's " + m["model-first-sentence-ms"] +
			" ms to its first sentence; target p95 < 50 ms"}}
}
