package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/url"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"time"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/jobs"
	"github.com/bettyhq/betty/server/knowledge"
	"github.com/bettyhq/betty/server/knowledge/knowledgetest"
	"github.com/bettyhq/betty/server/store"
)

// knowledgeRows measures knowledge bases on SQLite and, when postgresURL is set, PostgreSQL:
// reading and indexing a 200-page PDF through the parsing job's own code (pages/s), and the
// latency of searches over 10,000 passages through the domain's Search (p50/p99).
func knowledgeRows(postgresURL string, searches int) ([]row, error) {
	var rows []row
	dir, err := os.MkdirTemp("", "betty-bench-kb-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	targets := []struct {
		name string
		opts store.Options
	}{{"SQLite", store.Options{DataDir: dir}}}
	if postgresURL != "" {
		opts, drop, err := postgresSchema(postgresURL)
		if err != nil {
			return nil, err
		}
		defer drop()
		targets = append(targets, struct {
			name string
			opts store.Options
		}{"PostgreSQL", opts})
	}
	for _, tg := range targets {
		r, err := knowledgeOn(tg.name, tg.opts, searches)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", tg.name, err)
		}
		rows = append(rows, r...)
	}
	if postgresURL == "" {
		rows = append(rows, row{"knowledge on PostgreSQL", "not measured", "set BETTY_TEST_POSTGRES_URL"})
	}
	return rows, nil
}

// postgresSchema makes a fresh schema on the server base names, and answers options that use
// it and a function that drops it.
func postgresSchema(base string) (store.Options, func(), error) {
	ctx := context.Background()
	admin, err := store.Open(ctx, store.Options{DatabaseURL: base, MaxOpenConns: 1})
	if err != nil {
		return store.Options{}, nil, err
	}
	schema := fmt.Sprintf("bench_kb_%d", time.Now().UnixNano())
	if err := admin.ExecRaw(ctx, "CREATE SCHEMA "+schema); err != nil {
		admin.Close()
		return store.Options{}, nil, err
	}
	u, err := url.Parse(base)
	if err != nil {
		admin.Close()
		return store.Options{}, nil, err
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return store.Options{DatabaseURL: u.String(), MaxOpenConns: 4}, func() {
		_ = admin.ExecRaw(ctx, "DROP SCHEMA "+schema+" CASCADE")
		admin.Close()
	}, nil
}

func knowledgeOn(name string, opts store.Options, searches int) ([]row, error) {
	ctx := context.Background()
	db, err := store.Open(ctx, opts)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	if _, err := db.Migrate(ctx); err != nil {
		return nil, err
	}
	u := store.User{Email: "kb-bench@example.com"}
	if err := db.CreateUser(ctx, &u); err != nil {
		return nil, err
	}
	org := store.Organization{Name: "KB bench", OwnerUserID: u.ID, PublicAPIKey: "betty_pk_kb_bench"}
	if err := db.CreateOrganization(ctx, &org, u.Email); err != nil {
		return nil, err
	}
	files := &memFiles{}
	svc := knowledge.New(db, jobs.New(db, slog.New(slog.NewTextHandler(io.Discard, nil)), jobs.Config{}), files, knowledge.Limits{})
	a := auth.Actor{Grant: auth.Grant{OrganizationID: org.ID, Role: auth.Owner}}

	// Parse and index: a 200-page PDF, about 2,000 characters a page, as the job reads it.
	kb, err := svc.Create(ctx, a, "Manuals", nil)
	if err != nil {
		return nil, err
	}
	pages := make([]knowledgetest.Page, 200)
	for i := range pages {
		pages[i] = knowledgetest.Page{Heading: fmt.Sprintf("Section %d", i+1),
			Paragraphs: []string{knowledgetest.Lorem(i, 700), knowledgetest.Lorem(i+1, 700), knowledgetest.Lorem(i+2, 600)}}
	}
	files.data = knowledgetest.PDF(pages...)
	f := store.KnowledgeFile{OrganizationID: org.ID, KnowledgeBaseID: kb.ID, Type: string(knowledge.PDF), Status: store.KnowledgeParsing,
		Name: "manual.pdf", UploadID: ptr("bench-upload"), Size: int64(len(files.data))}
	if err := db.CreateKnowledgeFile(ctx, &f); err != nil {
		return nil, err
	}
	start := time.Now()
	if err := svc.ParseFile(ctx, org.ID, f.ID, true); err != nil {
		return nil, err
	}
	took := time.Since(start)
	if got, err := db.KnowledgeFileByID(ctx, org.ID, f.ID); err != nil || got.Status != store.KnowledgeSuccess || got.Pages == nil || *got.Pages != 200 {
		return nil, fmt.Errorf("the bench PDF was not read: %+v %v", got, err)
	}
	rows := []row{{fmt.Sprintf("knowledge parse+index, %s", name), fmt.Sprintf("%.0f pages/s", 200/took.Seconds()),
		fmt.Sprintf("200-page PDF (%d KiB) read, split and indexed in %s", len(files.data)>>10, ms(took))}}

	// Search: 10,000 passages of ~700 characters drawn from a 5,000-word vocabulary with the
	// frequencies of natural text (Zipf, s = 1.07), in 20 files of one knowledge base, and
	// 10,000 more of another team beside them; questions of three words past the 100 most
	// common (the domain leaves common words out of a question).
	big, err := svc.Create(ctx, a, "Big", nil)
	if err != nil {
		return nil, err
	}
	vocab := vocabulary(5000)
	dist := rand.NewZipf(rand.New(rand.NewPCG(1, 2)), 1.07, 1, uint64(len(vocab)-1))
	zipf := func() string { return vocab[dist.Uint64()] }
	ask := func() string { return vocab[100+dist.Uint64()%uint64(len(vocab)-100)] }
	other := store.Organization{Name: "KB bench neighbour", OwnerUserID: u.ID, PublicAPIKey: "betty_pk_kb_bench_2"}
	if err := db.CreateOrganization(ctx, &other, u.Email); err != nil {
		return nil, err
	}
	theirs, err := svc.Create(ctx, auth.Actor{Grant: auth.Grant{OrganizationID: other.ID, Role: auth.Owner}}, "Theirs", nil)
	if err != nil {
		return nil, err
	}
	for _, kb := range []store.KnowledgeBase{big, theirs} {
		for file := range 20 {
			kf := store.KnowledgeFile{OrganizationID: kb.OrganizationID, KnowledgeBaseID: kb.ID, Type: "txt", Status: store.KnowledgeSuccess,
				Name: fmt.Sprintf("doc-%02d.txt", file)}
			if err := db.CreateKnowledgeFile(ctx, &kf); err != nil {
				return nil, err
			}
			passages := make([]store.Passage, 500)
			for i := range passages {
				var b strings.Builder
				for b.Len() < 700 {
					b.WriteString(zipf())
					b.WriteByte(' ')
				}
				passages[i] = store.Passage{Content: b.String()}
			}
			if err := db.ReplacePassages(ctx, kb.OrganizationID, kb.ID, kf.ID, passages); err != nil {
				return nil, err
			}
		}
	}
	lat := make([]time.Duration, 0, searches)
	found := 0
	for range searches {
		q := ask() + " " + ask() + " " + ask()
		start := time.Now()
		hits, err := svc.Search(ctx, a, knowledge.SearchInput{KnowledgeBaseID: big.ID, Query: q, Limit: 5})
		if err != nil {
			return nil, err
		}
		lat = append(lat, time.Since(start))
		if len(hits) > 0 {
			found++
		}
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	p := func(q float64) time.Duration { return lat[int(q*float64(len(lat)-1))] }
	rows = append(rows, row{fmt.Sprintf("knowledge search, %s", name), fmt.Sprintf("p50 %s, p99 %s", ms(p(0.50)), ms(p(0.99))),
		fmt.Sprintf("%d searches, top 5 of 10,000 passages (10,000 of another team beside); %d found something", searches, found)})
	return rows, nil
}

// vocabulary makes n distinct pronounceable words.
func vocabulary(n int) []string {
	syll := []string{"ka", "lo", "mi", "ren", "tu", "sa", "vel", "dor", "pi", "qua", "zen", "fi", "gro", "han", "ju", "bex"}
	out := make([]string, 0, n)
	seen := map[string]bool{}
	for i := 0; len(out) < n; i++ {
		w := syll[i%16] + syll[(i/16)%16] + syll[(i/256)%16]
		if i >= 4096 {
			w += syll[(i/4096)%16]
		}
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

func ptr[T any](v T) *T { return &v }

// memFiles serves the bench PDF as the one upload there is, or each upload by its id.
type memFiles struct {
	data []byte
	byID map[string][]byte
}

type memObject struct{ *bytes.Reader }

func (memObject) Close() error  { return nil }
func (o memObject) Size() int64 { return o.Reader.Size() }

func (m *memFiles) Resolve(context.Context, string, string) (knowledge.Upload, error) {
	return knowledge.Upload{}, fmt.Errorf("not in the bench")
}
func (m *memFiles) Open(_ context.Context, _, id string) (knowledge.Object, error) {
	if data, ok := m.byID[id]; ok {
		return memObject{bytes.NewReader(data)}, nil
	}
	return memObject{bytes.NewReader(m.data)}, nil
}
func (m *memFiles) URL(context.Context, string, string) (string, error)           { return "", nil }
func (m *memFiles) Use(context.Context, string, string, string) error             { return nil }
func (m *memFiles) Discard(context.Context, string, string, string) (bool, error) { return false, nil }
func (m *memFiles) Purge(context.Context, string, string)                         {}

// bombRows measures what eight zip bombs of 1.2 GB (knowledgetest.EightBombs) read at once, as
// eight job workers would, add to a process's peak memory: a child process (this program with
// -bombs-child) reads them through the parsing job's code with `betty serve`'s default limits
// and reports its resident memory before and its peak (VmHWM) after. The budget is 150 MiB
// (server/knowledge's TestEightBombsInBoundedMemory fails past it).
func bombRows() ([]row, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	out, err := exec.Command(exe, "-bombs-child").CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("%v: %s", err, out)
	}
	var idle, peak, took int64
	if _, err := fmt.Sscanf(strings.TrimSpace(string(out)), "idle %d kB, peak %d kB, %d µs", &idle, &peak, &took); err != nil {
		return nil, fmt.Errorf("child said %q: %v", out, err)
	}
	return []row{{"knowledge: eight zip bombs at once", fmt.Sprintf("+%d MiB peak RSS", (peak-idle)>>10),
		fmt.Sprintf("DOCX of 1.2 GB inflated (4 honest, 4 lying headers), 8 at once: %d → %d MiB, in %s; budget 150 MiB", idle>>10, peak>>10, ms(time.Duration(took)*time.Microsecond))}}, nil
}

// readBombs is the child of bombRows.
func readBombs() error {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "betty-bench-bombs-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	db, err := store.Open(ctx, store.Options{DataDir: dir})
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := db.Migrate(ctx); err != nil {
		return err
	}
	u := store.User{Email: "bombs@example.com"}
	if err := db.CreateUser(ctx, &u); err != nil {
		return err
	}
	org := store.Organization{Name: "Bombs", OwnerUserID: u.ID, PublicAPIKey: "betty_pk_bombs"}
	if err := db.CreateOrganization(ctx, &org, u.Email); err != nil {
		return err
	}
	files := &memFiles{byID: map[string][]byte{}}
	svc := knowledge.New(db, jobs.New(db, slog.New(slog.NewTextHandler(io.Discard, nil)), jobs.Config{}), files, knowledge.Limits{})
	kb, err := svc.Create(ctx, auth.Actor{Grant: auth.Grant{OrganizationID: org.ID, Role: auth.Owner}}, "Bombs", nil)
	if err != nil {
		return err
	}
	var ids []string
	for i, bomb := range knowledgetest.EightBombs() {
		f := store.KnowledgeFile{OrganizationID: org.ID, KnowledgeBaseID: kb.ID, Type: string(knowledge.DOCX), Status: store.KnowledgeParsing,
			Name: fmt.Sprintf("bomb-%d.docx", i), UploadID: ptr(fmt.Sprintf("bomb-%d", i)), Size: int64(len(bomb))}
		if err := db.CreateKnowledgeFile(ctx, &f); err != nil {
			return err
		}
		ids = append(ids, f.ID)
		files.byID[*f.UploadID] = bomb
	}
	runtime.GC()
	debug.FreeOSMemory()
	idle, err := procStatus("VmRSS")
	if err != nil {
		return err
	}
	// Writing 5 to clear_refs resets the peak (VmHWM) to what is resident now.
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		return err
	}
	start := time.Now()
	errc := make(chan error, len(ids))
	for _, id := range ids {
		go func() { errc <- svc.ParseFile(ctx, org.ID, id, true) }()
	}
	for range ids {
		if err := <-errc; err != nil {
			return err
		}
	}
	took := time.Since(start)
	peak, err := procStatus("VmHWM")
	if err != nil {
		return err
	}
	fmt.Printf("idle %d kB, peak %d kB, %d µs\n", idle, peak, took.Microseconds())
	return nil
}

// procStatus reads a kB field of /proc/self/status.
func procStatus(field string) (int64, error) {
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(raw), "\n") {
		var kb int64
		if _, err := fmt.Sscanf(line, field+": %d kB", &kb); err == nil {
			return kb, nil
		}
	}
	return 0, fmt.Errorf("no %s in /proc/self/status", field)
}
