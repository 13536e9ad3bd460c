package integrations

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
)

// Sealer encrypts OAuth credentials at rest with AES-256-GCM. A sealed value is
// base64url(nonce ‖ ciphertext ‖ tag), bound to the connected app it belongs to (the app id is
// the additional data), so a sealed credential copied onto another row does not open.
type Sealer struct{ aead cipher.AEAD }

// ParseKey reads a 32-byte key written as 64 hex digits or as base64 (standard or URL).
func ParseKey(s string) ([]byte, error) {
	if b, err := hex.DecodeString(s); err == nil && len(b) == 32 {
		return b, nil
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil && len(b) == 32 {
			return b, nil
		}
	}
	return nil, errors.New("the integrations key must be 32 bytes, as 64 hex digits or base64")
}

// NewSealer builds a sealer from a 32-byte key.
func NewSealer(key []byte) (*Sealer, error) {
	if len(key) != 32 {
		return nil, fmt.Errorf("integrations: key is %d bytes, want 32", len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &Sealer{aead: aead}, nil
}

// Seal encrypts plain for the connected app appID.
func (s *Sealer) Seal(appID string, plain []byte) string {
	nonce := make([]byte, s.aead.NonceSize(), s.aead.NonceSize()+len(plain)+s.aead.Overhead())
	_, _ = rand.Read(nonce)
	return base64.RawURLEncoding.EncodeToString(s.aead.Seal(nonce, nonce, plain, []byte(appID)))
}

// Open decrypts what Seal made for appID.
func (s *Sealer) Open(appID, sealed string) ([]byte, error) {
	b, err := base64.RawURLEncoding.DecodeString(sealed)
	if err != nil || len(b) < s.aead.NonceSize()+s.aead.Overhead() {
		return nil, errors.New("integrations: sealed credential is malformed")
	}
	n := s.aead.NonceSize()
	plain, err := s.aead.Open(nil, b[:n], b[n:], []byte(appID))
	if err != nil {
		return nil, errors.New("integrations: sealed credential does not open (wrong key or another app's)")
	}
	return plain, nil
}
