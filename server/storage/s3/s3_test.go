package s3_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"github.com/bettyhq/betty/server/storage/s3"
	"github.com/bettyhq/betty/server/storage/storagetest"
)

// fakeS3 is an S3 server in process, speaking S3's REST API (gofakes3) over HTTPS as a real
// store would, with one bucket; it answers a store of bucket on it. (Over plain HTTP minio-go
// signs each chunk of a multipart upload, which S3 and MinIO accept and gofakes3 does not
// decode.)
func fakeS3(t *testing.T, bucket string) *s3.Store {
	t.Helper()
	backend := s3mem.New()
	if err := backend.CreateBucket("betty"); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewTLSServer(gofakes3.New(backend).Server())
	t.Cleanup(srv.Close)
	st, err := s3.New(strings.TrimPrefix(srv.URL, "https://"), bucket, "key", "secret", "us-east-1", true, srv.Client().Transport)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func TestS3(t *testing.T) {
	st := fakeS3(t, "betty")
	if got := st.String(); !strings.HasPrefix(got, "s3 https://127.0.0.1:") || !strings.HasSuffix(got, "/betty") {
		t.Errorf("String() = %q", got)
	}
	storagetest.Run(t, st)
}

func TestS3UnreachableBucket(t *testing.T) {
	st := fakeS3(t, "other")
	if err := st.Put(context.Background(), "a/b", strings.NewReader("x"), 1); err == nil {
		t.Fatal("put into a bucket that does not exist succeeded")
	}
}

func TestOpen(t *testing.T) {
	st, err := s3.Open("s3://key:secret@minio.internal:9000/betty-files?region=eu-west-1&secure=false")
	if err != nil || st.String() != "s3 http://minio.internal:9000/betty-files" {
		t.Fatalf("Open: %v %v", st, err)
	}
	if st, err := s3.Open("s3://key:secret@s3.amazonaws.com/betty"); err != nil || st.String() != "s3 https://s3.amazonaws.com/betty" {
		t.Fatalf("Open: %v %v", st, err)
	}
}

func TestOpenNamesTheSetting(t *testing.T) {
	for raw, want := range map[string]string{
		"s3://host/bucket":                    "access key and secret are required",
		"s3://key@host/bucket":                "access key and secret are required",
		"s3://key:secret@host":                "name the bucket",
		"s3://key:secret@host/a/b":            "name the bucket",
		"http://key:secret@host/bucket":       "want s3://",
		"s3://key:secret@host/b?secure=maybe": "secure",
	} {
		_, err := s3.Open(raw)
		if err == nil || !strings.Contains(err.Error(), "storage_url") || !strings.Contains(err.Error(), want) {
			t.Errorf("Open(%q) = %v, want an error naming storage_url and %q", raw, err, want)
		}
	}
}
