package files

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/bettyhq/betty/sdk/client"
)

// keepFor is how long an unfinished upload is remembered: the server deletes it after 24 hours.
const keepFor = 24 * time.Hour

// unfinishedUploads remembers, in uploads.json of the configuration directory, the URL of each
// upload that has not finished, by the file it sends, so the next run resumes it.
type unfinishedUploads struct{ path string }

type unfinishedUpload struct {
	URL       string    `json:"url"`
	CreatedAt time.Time `json:"createdAt"`
}

func openUnfinished(dir string) unfinishedUploads {
	return unfinishedUploads{path: filepath.Join(dir, "uploads.json")}
}

// unfinishedKey names one file sent to one team of one server: a file changed since (size or
// modification time) is another file.
func unfinishedKey(server, team string, purpose client.UploadPurpose, path string, st fs.FileInfo) string {
	h := sha256.Sum256(fmt.Appendf(nil, "%s\n%s\n%s\n%s\n%d\n%d", server, team, purpose, path, st.Size(), st.ModTime().UnixNano()))
	return hex.EncodeToString(h[:16])
}

func (u unfinishedUploads) load() map[string]unfinishedUpload {
	all := map[string]unfinishedUpload{}
	raw, err := os.ReadFile(u.path)
	if err == nil {
		_ = json.Unmarshal(raw, &all) // a damaged file only loses what it remembered
	}
	for k, v := range all {
		if time.Since(v.CreatedAt) > keepFor {
			delete(all, k)
		}
	}
	return all
}

func (u unfinishedUploads) get(key string) string { return u.load()[key].URL }

func (u unfinishedUploads) put(key, url string) error {
	all := u.load()
	all[key] = unfinishedUpload{URL: url, CreatedAt: time.Now().UTC()}
	return u.save(all)
}

func (u unfinishedUploads) forget(key string) error {
	all := u.load()
	if _, ok := all[key]; !ok {
		return nil
	}
	delete(all, key)
	return u.save(all)
}

// save writes the file whole, readable by its owner only (the URLs name the team's uploads).
func (u unfinishedUploads) save(all map[string]unfinishedUpload) error {
	raw, err := json.MarshalIndent(all, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(u.path), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(u.path), ".uploads-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(raw)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp.Name(), u.path)
}
