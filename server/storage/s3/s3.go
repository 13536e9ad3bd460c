// Package s3 keeps Betty's files in a bucket of an S3-compatible object store (AWS S3, MinIO,
// Ceph, R2…), for replicas that share no disk. It speaks S3's REST API through minio-go; its
// tests run the same suite as the disk against a fake S3 server in process.
package s3

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"github.com/bettyhq/betty/server/storage"
)

// Store is a bucket.
type Store struct {
	client *minio.Client
	bucket string
	where  string
}

// Open connects to the store an s3:// URL names (storage_url):
// s3://KEY:SECRET@HOST[:PORT]/BUCKET?region=REGION&secure=true. secure (HTTPS) is true unless
// it says false; region is optional. It does not dial: the first call does.
func Open(raw string) (*Store, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "s3" || u.Host == "" {
		return nil, errors.New("storage_url: want s3://key:secret@host:port/bucket?region=…&secure=true")
	}
	bucket := strings.Trim(u.Path, "/")
	if bucket == "" || strings.Contains(bucket, "/") {
		return nil, errors.New("storage_url: name the bucket: s3://key:secret@host/bucket")
	}
	key, secret := u.User.Username(), ""
	if u.User != nil {
		secret, _ = u.User.Password()
	}
	if key == "" || secret == "" {
		return nil, errors.New("storage_url: the access key and secret are required: s3://key:secret@host/bucket")
	}
	secure := true
	if v := u.Query().Get("secure"); v != "" {
		if secure, err = strconv.ParseBool(v); err != nil {
			return nil, fmt.Errorf("storage_url: secure=%q: want true or false", v)
		}
	}
	return New(u.Host, bucket, key, secret, u.Query().Get("region"), secure, nil)
}

// New returns the store of bucket at endpoint (host:port). transport may be nil.
func New(endpoint, bucket, key, secret, region string, secure bool, transport http.RoundTripper) (*Store, error) {
	c, err := minio.New(endpoint, &minio.Options{
		Creds:     credentials.NewStaticV4(key, secret, ""),
		Secure:    secure,
		Region:    region,
		Transport: transport,
	})
	if err != nil {
		return nil, fmt.Errorf("storage_url: %w", err)
	}
	scheme := "https"
	if !secure {
		scheme = "http"
	}
	return &Store{client: c, bucket: bucket, where: fmt.Sprintf("s3 %s://%s/%s", scheme, endpoint, bucket)}, nil
}

func (s *Store) String() string { return s.where }

func (s *Store) Put(ctx context.Context, key string, r io.Reader, size int64) error {
	if err := storage.CheckKey(key); err != nil {
		return err
	}
	_, err := s.client.PutObject(ctx, s.bucket, key, r, size, minio.PutObjectOptions{ContentType: "application/octet-stream"})
	return err
}

func (s *Store) Open(ctx context.Context, key string) (storage.Object, error) {
	if err := storage.CheckKey(key); err != nil {
		return nil, err
	}
	o, err := s.client.GetObject(ctx, s.bucket, key, minio.GetObjectOptions{})
	if err != nil {
		return nil, notExist(err, key)
	}
	// GetObject is lazy: Stat makes the request, so a missing object fails here.
	st, err := o.Stat()
	if err != nil {
		o.Close()
		return nil, notExist(err, key)
	}
	return object{o, st.Size}, nil
}

type object struct {
	*minio.Object
	size int64
}

func (o object) Size() int64 { return o.size }

func (s *Store) Delete(ctx context.Context, key string) error {
	if err := storage.CheckKey(key); err != nil {
		return err
	}
	return s.client.RemoveObject(ctx, s.bucket, key, minio.RemoveObjectOptions{})
}

func (s *Store) DeletePrefix(ctx context.Context, prefix string) error {
	if err := storage.CheckPrefix(prefix); err != nil {
		return err
	}
	if prefix == "" {
		return errors.New("storage: refusing to delete every object")
	}
	// Cancelling stops the listing when a removal fails half-way.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for o := range s.client.ListObjects(ctx, s.bucket, minio.ListObjectsOptions{Prefix: prefix, Recursive: true}) {
		if o.Err != nil {
			return o.Err
		}
		if err := s.client.RemoveObject(ctx, s.bucket, o.Key, minio.RemoveObjectOptions{}); err != nil {
			return err
		}
	}
	return nil
}

// notExist turns S3's NoSuchKey into storage.ErrNotExist.
func notExist(err error, key string) error {
	if minio.ToErrorResponse(err).Code == minio.NoSuchKey {
		return fmt.Errorf("%w: %s", storage.ErrNotExist, key)
	}
	return err
}
