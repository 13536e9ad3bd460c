package httpapi

import "testing"

func TestPathRegexp(t *testing.T) {
	re := pathRegexp("/v1/agent/{id}/x.y")
	for path, want := range map[string]bool{
		"/v1/agent/abc/x.y": true, "/v1/agent/abc/xzy": false, "/v1/agent//x.y": false, "/v1/agent/a/b/x.y": false,
	} {
		if re.MatchString(path) != want {
			t.Errorf("%s: want %v", path, want)
		}
	}
}
