package storage_test

import (
	"testing"

	"github.com/bettyhq/betty/server/storage"
	"github.com/bettyhq/betty/server/storage/storagetest"
)

func TestDisk(t *testing.T) {
	d, err := storage.NewDisk(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	storagetest.Run(t, d)
}

func TestDiskNeedsAFolder(t *testing.T) {
	if _, err := storage.NewDisk(""); err == nil {
		t.Fatal("a disk storage without a folder was made")
	}
}
