package uploads_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/jobs"
	"github.com/bettyhq/betty/server/storage"
	"github.com/bettyhq/betty/server/store"
	"github.com/bettyhq/betty/server/uploads"
	"github.com/bettyhq/betty/server/uploads/uploadstest"
)

// clock is a settable time.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

type fixture struct {
	t     *testing.T
	db    *store.DB
	svc   *uploads.Service
	clock *clock
	dir   string // the disk storage's folder
	jobs  *jobs.Queue
	orgA  auth.Actor
	orgB  auth.Actor
}

func setUp(t *testing.T, db *store.DB) *fixture {
	t.Helper()
	dir := t.TempDir()
	files, err := storage.NewDisk(dir)
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	c := &clock{t: time.Now()}
	q := jobs.New(db, log, jobs.Config{PollInterval: 20 * time.Millisecond})
	svc := uploads.New(db, q, files, log,
		uploads.Config{BaseURL: "https://betty.example.com", Secret: []byte("secret"), Now: c.now})
	f := &fixture{t: t, db: db, svc: svc, clock: c, dir: dir, jobs: q}
	f.orgA = auth.Actor{Grant: auth.Grant{OrganizationID: f.team("a@example.com")}}
	f.orgB = auth.Actor{Grant: auth.Grant{OrganizationID: f.team("b@example.com")}}
	return f
}

func (f *fixture) team(email string) string {
	ctx := context.Background()
	u := store.User{Email: email}
	if err := f.db.CreateUser(ctx, &u); err != nil {
		f.t.Fatal(err)
	}
	o := store.Organization{Name: "Team " + email, OwnerUserID: u.ID, PublicAPIKey: "pk_" + store.NewID()}
	if err := f.db.CreateOrganization(ctx, &o, email); err != nil {
		f.t.Fatal(err)
	}
	return o.ID
}

func (f *fixture) create(a auth.Actor, purpose uploads.Purpose, name string, size int) uploads.File {
	f.t.Helper()
	up, err := f.svc.Create(context.Background(), a, int64(size), uploads.Metadata{FileName: name, OrganizationID: a.OrganizationID, Purpose: purpose, Raw: "filename x"})
	if err != nil {
		f.t.Fatalf("create %s: %v", name, err)
	}
	return up
}

func (f *fixture) append(a auth.Actor, id string, offset int, body []byte) (uploads.File, error) {
	return f.svc.Append(context.Background(), a, id, int64(offset), bytes.NewReader(body))
}

// upload sends data in chunks of n bytes and answers the finished file.
func (f *fixture) upload(a auth.Actor, purpose uploads.Purpose, name string, data []byte, n int) uploads.File {
	f.t.Helper()
	up := f.create(a, purpose, name, len(data))
	for off := 0; off < len(data); off += n {
		var err error
		if up, err = f.append(a, up.ID, off, data[off:min(off+n, len(data))]); err != nil {
			f.t.Fatalf("append at %d: %v", off, err)
		}
	}
	if !up.Complete() {
		f.t.Fatalf("not complete after every byte: %+v", up)
	}
	return up
}

func (f *fixture) read(orgID, id string) []byte {
	f.t.Helper()
	o, _, err := f.svc.Open(context.Background(), orgID, id)
	if err != nil {
		f.t.Fatal(err)
	}
	defer o.Close()
	b, err := io.ReadAll(o)
	if err != nil {
		f.t.Fatal(err)
	}
	return b
}

// stored lists the objects of an upload on disk.
func (f *fixture) stored(orgID, id string) []string {
	entries, _ := os.ReadDir(filepath.Join(f.dir, orgID, id))
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func (f *fixture) link(up uploads.File) string {
	f.t.Helper()
	link, err := f.svc.URL(context.Background(), up.OrganizationID, up.ID)
	if err != nil {
		f.t.Fatal(err)
	}
	return link
}

func wantKind(t *testing.T, err error, k errs.Kind) {
	t.Helper()
	if !errs.Is(err, k) {
		t.Fatalf("%v, want %s", err, k)
	}
}

func TestUploadInChunks(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		f := setUp(t, db)
		ctx := context.Background()
		data := uploadstest.PDF(30_000)
		up := f.create(f.orgA, uploads.KnowledgeFile, "price-list.pdf", len(data))

		// Below 8 KiB the type is the declared one; past it, the one read from the bytes.
		up, err := f.append(f.orgA, up.ID, 0, data[:5000])
		if err != nil || up.Offset != 5000 || up.Complete() {
			t.Fatalf("first chunk: %+v %v", up, err)
		}
		_, err = f.append(f.orgA, up.ID, 0, data[:5000])
		wantKind(t, err, errs.Conflict)
		_, err = f.append(f.orgB, up.ID, 5000, data[5000:])
		wantKind(t, err, errs.NotFound)
		if up, err = f.append(f.orgA, up.ID, 5000, data[5000:20_000]); err != nil || up.Offset != 20_000 || up.Type != "application/pdf" {
			t.Fatalf("second chunk: %+v %v", up, err)
		}
		if got := f.stored(up.OrganizationID, up.ID); len(got) != 2 {
			t.Fatalf("objects of an unfinished upload: %v", got)
		}
		if up, err = f.append(f.orgA, up.ID, 20_000, data[20_000:]); err != nil || !up.Complete() || up.Offset != int64(len(data)) {
			t.Fatalf("last chunk: %+v %v", up, err)
		}
		if !bytes.Equal(f.read(up.OrganizationID, up.ID), data) {
			t.Fatal("the stored file differs from the one sent")
		}
		if got := f.stored(up.OrganizationID, up.ID); len(got) != 1 || !strings.HasPrefix(got[0], "file-") {
			t.Fatalf("objects of a finished upload: %v (the chunks should be gone)", got)
		}
		_, err = f.append(f.orgA, up.ID, len(data), []byte("more"))
		wantKind(t, err, errs.Conflict)

		// Its signed URL downloads it and names it to other features.
		link := f.link(up)
		if !strings.HasPrefix(link, "https://betty.example.com/v1/files/"+up.ID+"?token=") {
			t.Fatalf("url %s", link)
		}
		token := link[strings.Index(link, "token=")+6:]
		o, got, err := f.svc.Download(ctx, up.ID, token)
		if err != nil || got.Type != "application/pdf" || got.Name != "price-list.pdf" {
			t.Fatalf("download: %+v %v", got, err)
		}
		o.Close()
		if byURL, err := f.svc.FileByURL(ctx, f.orgA.OrganizationID, link, uploads.KnowledgeFile); err != nil || byURL.ID != up.ID {
			t.Fatalf("file by url: %+v %v", byURL, err)
		}
	})
}

// A body cut off keeps the bytes that arrived; the upload resumes from there.
func TestCutChunkKeepsWhatArrived(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		f := setUp(t, db)
		data := uploadstest.MP3(50_000)
		up := f.create(f.orgA, uploads.AgentAudio, "hello.mp3", len(data))
		cut := io.MultiReader(bytes.NewReader(data[:12_345]), brokenConn{})
		up, err := f.svc.Append(context.Background(), f.orgA, up.ID, 0, cut)
		if err != nil || up.Offset != 12_345 || up.Type != "audio/mpeg" {
			t.Fatalf("cut chunk: %+v %v", up, err)
		}
		if up, err = f.append(f.orgA, up.ID, 12_345, data[12_345:]); err != nil || !up.Complete() {
			t.Fatalf("resume: %+v %v", up, err)
		}
		if !bytes.Equal(f.read(up.OrganizationID, up.ID), data) {
			t.Fatal("the resumed file differs from the one sent")
		}
	})
}

type brokenConn struct{}

func (brokenConn) Read([]byte) (int, error) { return 0, errors.New("connection reset by peer") }

func TestSizesAndTypesAreRefused(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		f := setUp(t, db)
		ctx := context.Background()
		md := uploads.Metadata{FileName: "big.mp3", OrganizationID: f.orgA.OrganizationID, Purpose: uploads.AgentAudio}
		_, err := f.svc.Create(ctx, f.orgA, uploads.MaxSize+1, md)
		wantKind(t, err, errs.TooLarge)
		_, err = f.svc.Create(ctx, f.orgA, 0, md)
		wantKind(t, err, errs.Unprocessable)
		md.FileName = "notes.pdf"
		_, err = f.svc.Create(ctx, f.orgA, 10, md)
		wantKind(t, err, errs.Unprocessable)

		// More bytes than the upload lacks keeps nothing.
		up := f.create(f.orgA, uploads.ContactsCSV, "list.csv", 100)
		_, err = f.append(f.orgA, up.ID, 0, uploadstest.CSV(101)[:101])
		wantKind(t, err, errs.TooLarge)
		if got, _ := f.svc.Get(ctx, f.orgA, up.ID); got.Offset != 0 {
			t.Fatalf("offset after a refused chunk: %d", got.Offset)
		}

		// Bytes of the wrong type delete the upload, bytes included, once 8 KiB arrived.
		fake := f.create(f.orgA, uploads.KnowledgeFile, "report.pdf", 100_000)
		mp3 := uploadstest.MP3(100_000)
		if _, err := f.append(f.orgA, fake.ID, 0, mp3[:4000]); err != nil {
			t.Fatalf("4 kB is too early to tell: %v", err)
		}
		if got := f.stored(fake.OrganizationID, fake.ID); len(got) != 1 {
			t.Fatalf("objects: %v", got)
		}
		_, err = f.append(f.orgA, fake.ID, 4000, mp3[4000:9000])
		wantKind(t, err, errs.Unprocessable)
		_, err = f.svc.Get(ctx, f.orgA, fake.ID)
		wantKind(t, err, errs.NotFound)
		if got := f.stored(fake.OrganizationID, fake.ID); len(got) != 0 {
			t.Fatalf("the refused upload's bytes are still there: %v", got)
		}

		// A small file is checked when it completes; a zip is a Word document only if it is one.
		_, err = f.append(f.orgA, f.create(f.orgA, uploads.AgentAudio, "hello.mp3", 10).ID, 0, []byte("%PDF-1.7\n\n"))
		wantKind(t, err, errs.Unprocessable)
		doc := uploadstest.DOCX()
		if up := f.upload(f.orgA, uploads.KnowledgeFile, "letter.docx", doc, 1000); up.Type != "application/vnd.openxmlformats-officedocument.wordprocessingml.document" {
			t.Fatalf("docx type %q", up.Type)
		}
		zip := uploadstest.Zip()
		notDoc := f.create(f.orgA, uploads.KnowledgeFile, "letter.docx", len(zip))
		_, err = f.append(f.orgA, notDoc.ID, 0, zip)
		wantKind(t, err, errs.Unprocessable)
		if got := f.stored(notDoc.OrganizationID, notDoc.ID); len(got) != 0 {
			t.Fatalf("the refused zip is still there: %v", got)
		}
	})
}

func TestCleanup(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		f := setUp(t, db)
		ctx := context.Background()
		unfinished := f.create(f.orgA, uploads.ContactsCSV, "list.csv", 10_000)
		if _, err := f.append(f.orgA, unfinished.ID, 0, uploadstest.CSV(10_000)[:5000]); err != nil {
			t.Fatal(err)
		}
		unused := f.upload(f.orgA, uploads.ContactsCSV, "old.csv", uploadstest.CSV(300), 300)
		used := f.upload(f.orgA, uploads.ContactsCSV, "kept.csv", uploadstest.CSV(300), 300)
		if err := f.svc.Use(ctx, f.orgA.OrganizationID, used.ID, "workflow:1"); err != nil {
			t.Fatal(err)
		}
		// A team deleted with its files leaves their bytes to the cleanup.
		gone := f.upload(f.orgB, uploads.ContactsCSV, "b.csv", uploadstest.CSV(300), 300)
		if err := db.DeleteOrganization(ctx, f.orgB.OrganizationID); err != nil {
			t.Fatal(err)
		}

		// 23 hours on nothing is stale, but the deleted team's bytes go.
		f.clock.add(23 * time.Hour)
		if n, err := f.svc.Cleanup(ctx); err != nil || n != 0 {
			t.Fatalf("cleanup after 23 h: %d %v", n, err)
		}
		if got := f.stored(gone.OrganizationID, gone.ID); len(got) != 0 {
			t.Fatalf("a deleted team's bytes: %v", got)
		}
		if got := f.stored(unfinished.OrganizationID, unfinished.ID); len(got) != 1 {
			t.Fatalf("the unfinished upload's chunk: %v", got)
		}

		// After 24 hours the unfinished upload is gone, bytes included.
		f.clock.add(2 * time.Hour)
		if n, err := f.svc.Cleanup(ctx); err != nil || n != 1 {
			t.Fatalf("cleanup after 25 h: %d %v", n, err)
		}
		_, err := f.svc.Get(ctx, f.orgA, unfinished.ID)
		wantKind(t, err, errs.NotFound)
		if got := f.stored(unfinished.OrganizationID, unfinished.ID); len(got) != 0 {
			t.Fatalf("the expired upload's bytes: %v", got)
		}

		// After 7 days unused, a finished upload is gone; the one in use stays until released.
		f.clock.add(7 * 24 * time.Hour)
		if n, err := f.svc.Cleanup(ctx); err != nil || n != 1 {
			t.Fatalf("cleanup after 8 days: %d %v", n, err)
		}
		if got := f.stored(unused.OrganizationID, unused.ID); len(got) != 0 {
			t.Fatalf("the unused file's bytes: %v", got)
		}
		if !bytes.Equal(f.read(used.OrganizationID, used.ID), uploadstest.CSV(300)) {
			t.Fatal("the file in use changed")
		}
		if err := f.svc.Release(ctx, f.orgA.OrganizationID, used.ID, "workflow:1"); err != nil {
			t.Fatal(err)
		}
		f.clock.add(6 * 24 * time.Hour)
		if n, _ := f.svc.Cleanup(ctx); n != 0 {
			t.Fatal("a file released 6 days ago was cleaned up")
		}
		f.clock.add(2 * 24 * time.Hour)
		if n, _ := f.svc.Cleanup(ctx); n != 1 {
			t.Fatal("a file released 8 days ago was kept")
		}
	})
}

// The cleanup is a periodic River job: the leader runs it when it starts (and hourly), and it
// deletes an upload left unfinished for more than 24 hours, bytes included.
func TestCleanupRunsAsAPeriodicJob(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		f := setUp(t, db)
		ctx := context.Background()
		up := f.create(f.orgA, uploads.AgentAudio, "hello.mp3", 20_000)
		if _, err := f.append(f.orgA, up.ID, 0, uploadstest.MP3(20_000)[:10_000]); err != nil {
			t.Fatal(err)
		}
		f.clock.add(uploads.ExpireAfter + time.Minute)
		if err := f.jobs.Open(); err != nil {
			t.Fatal(err)
		}
		if err := f.jobs.Start(ctx); err != nil {
			t.Fatal(err)
		}
		defer f.jobs.Stop(ctx)
		deadline := time.Now().Add(30 * time.Second)
		for len(f.stored(up.OrganizationID, up.ID)) > 0 && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
		}
		if got := f.stored(up.OrganizationID, up.ID); len(got) != 0 {
			t.Fatalf("the expired upload's bytes are still there: %v", got)
		}
		if _, err := db.UploadByID(ctx, up.OrganizationID, up.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("the expired upload's row: %v", err)
		}
	})
}

func TestTheAPIForOtherFeatures(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		f := setUp(t, db)
		ctx := context.Background()
		a := f.orgA.OrganizationID
		done := f.upload(f.orgA, uploads.AgentAudio, "hello.mp3", uploadstest.MP3(20_000), 20_000)
		link := f.link(done)
		unfinished := f.create(f.orgA, uploads.AgentAudio, "later.mp3", 20_000)

		for name, url := range map[string]string{
			"another team's":      link, // asked for by team B below
			"unfinished":          f.link(unfinished),
			"tampered":            link[:len(link)-2] + "xx",
			"not a file URL":      "https://betty.example.com/v1/uploads/" + done.ID,
			"an arbitrary URL":    "https://evil.example.com/a.mp3",
			"another id's token":  strings.Replace(link, done.ID, unfinished.ID, 1),
			"without a token":     "https://betty.example.com/v1/files/" + done.ID,
			"not a URL":           "::",
			"with an empty token": "https://betty.example.com/v1/files/" + done.ID + "?token=",
		} {
			org := a
			if name == "another team's" {
				org = f.orgB.OrganizationID
			}
			_, err := f.svc.FileByURL(ctx, org, url)
			if !errs.Is(err, errs.NotFound) {
				t.Errorf("%s: %v, want not found", name, err)
			}
		}
		_, err := f.svc.FileByURL(ctx, a, link, uploads.KnowledgeFile, uploads.AgentFile)
		wantKind(t, err, errs.Unprocessable)
		if got, err := f.svc.FileByURL(ctx, a, link, uploads.AgentAudio, uploads.VoiceSample); err != nil || got.Type != "audio/mpeg" {
			t.Fatalf("file by url: %+v %v", got, err)
		}

		// Open reads only a finished file of the team.
		_, _, err = f.svc.Open(ctx, f.orgB.OrganizationID, done.ID)
		wantKind(t, err, errs.NotFound)
		_, _, err = f.svc.Open(ctx, a, unfinished.ID)
		wantKind(t, err, errs.NotFound)
		o, got, err := f.svc.Open(ctx, a, done.ID)
		if err != nil || o.Size() != 20_000 || got.Name != "hello.mp3" {
			t.Fatalf("open: %+v %v", got, err)
		}
		o.Close()

		// A file in use cannot be deleted; another team cannot use it.
		wantKind(t, f.svc.Use(ctx, f.orgB.OrganizationID, done.ID, "agent:1"), errs.NotFound)
		wantKind(t, f.svc.Use(ctx, a, unfinished.ID, "agent:1"), errs.NotFound)
		if err := f.svc.Use(ctx, a, done.ID, "agent:1"); err != nil {
			t.Fatal(err)
		}
		wantKind(t, f.svc.Delete(ctx, f.orgA, done.ID), errs.Conflict)
		if err := f.svc.Release(ctx, a, done.ID, "agent:1"); err != nil {
			t.Fatal(err)
		}
		if err := f.svc.Delete(ctx, f.orgA, done.ID); err != nil {
			t.Fatal(err)
		}
		if got := f.stored(a, done.ID); len(got) != 0 {
			t.Fatalf("a deleted file's bytes: %v", got)
		}
		wantKind(t, f.svc.Delete(ctx, f.orgA, done.ID), errs.NotFound)

		// File URLs expire after 24 hours.
		other := f.upload(f.orgA, uploads.AgentAudio, "again.mp3", uploadstest.MP3(1000), 1000)
		link = f.link(other)
		f.clock.add(uploads.LinkTTL + time.Second)
		_, err = f.svc.FileByURL(ctx, a, link)
		wantKind(t, err, errs.NotFound)
	})
}
