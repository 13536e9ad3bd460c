package app

import (
	"errors"
	"path/filepath"
	"strings"

	"github.com/bettyhq/betty/server/config"
	"github.com/bettyhq/betty/server/storage"
	"github.com/bettyhq/betty/server/storage/s3"
)

// openStorage is where uploaded files live (storage_url): the data directory's files/ folder
// by default, or an S3-compatible bucket (s3://…) that replicas without a shared disk share.
func openStorage(cfg config.Config) (storage.Storage, error) {
	if strings.HasPrefix(cfg.StorageURL, "s3://") {
		return s3.Open(cfg.StorageURL)
	}
	if cfg.StorageURL != "" {
		return nil, errStorageURL
	}
	if cfg.DataDir == "" {
		return nil, errNoFilesDir
	}
	return storage.NewDisk(filepath.Join(cfg.DataDir, "files"))
}

var (
	errStorageURL = errors.New("storage_url: want empty (files in the data directory) or s3://key:secret@host:port/bucket?region=…&secure=true")
	errNoFilesDir = errors.New("storage_url: no data directory to keep files in: set data_dir, or storage_url to an S3 bucket")
)
