package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"strings"
)

// canvas runs the workflow canvas end-to-end test (dashboard/e2e/workflows.test.mjs) against
// the binary and reports the figures it prints: how long a 300-node workflow takes to open and
// the frame rate of a scripted pan, measured in headless Chromium by the page itself.
func canvas(bin string) []row {
	cmd := exec.Command("node", "--test", "e2e/workflows.test.mjs")
	cmd.Dir = "dashboard"
	cmd.Env = append(os.Environ(), "BETTY_BIN="+bin)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var rows []row
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		line := strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(sc.Text()), "#"))
		if rest, ok := strings.CutPrefix(line, "canvas: "); ok {
			rows = append(rows, row{"workflow canvas", rest, "headless Chromium; budget: 300 nodes open < 1 s, pan ≥ 55 fps"})
		}
	}
	if len(rows) == 0 {
		note := "needs make deps and /usr/bin/chromium"
		if err != nil {
			note = err.Error() + "; " + note
		}
		return []row{{"workflow canvas", "not measured", note}}
	}
	return rows
}
