package controllers

import (
	"crypto/rand"
	"fmt"
	"net/http"

	"golang.org/x/crypto/bcrypt"

	"github.com/asapjs/fiber-template/platform/problem"
)

// maxPasswordBytes is the most bcrypt reads of a password; it refuses
// longer ones rather than ignore the rest.
const maxPasswordBytes = 72

// Passwords hashes and checks passwords with bcrypt at one cost.
type Passwords struct {
	cost int
	// dummy is a hash at the same cost that no password matches; a login
	// for an unknown email is checked against it, so that it takes as long
	// as one for a known email and the timing tells nothing.
	dummy []byte
}

// NewPasswords returns the password hasher at cost, between bcrypt.MinCost
// and bcrypt.MaxCost.
func NewPasswords(cost int) (*Passwords, error) {
	if cost < bcrypt.MinCost || cost > bcrypt.MaxCost {
		return nil, fmt.Errorf("bcrypt cost %d is not between %d and %d", cost, bcrypt.MinCost, bcrypt.MaxCost)
	}
	secret := make([]byte, 32)
	if _, err := rand.Read(secret); err != nil {
		return nil, fmt.Errorf("generate dummy password: %w", err)
	}
	dummy, err := bcrypt.GenerateFromPassword([]byte(fmt.Sprintf("%x", secret)), cost)
	if err != nil {
		return nil, fmt.Errorf("hash dummy password: %w", err)
	}
	return &Passwords{cost: cost, dummy: dummy}, nil
}

// Hash returns the bcrypt hash of password. A password over 72 bytes is a
// 422 problem, since validate's max counts characters, not bytes.
func (p *Passwords) Hash(password string) (string, error) {
	if len(password) > maxPasswordBytes {
		pr := problem.New(http.StatusUnprocessableEntity, "The request failed validation.")
		pr.Errors = []problem.FieldError{{Field: "password", Message: fmt.Sprintf("must have at most %d bytes", maxPasswordBytes)}}
		return "", pr
	}
	h, err := bcrypt.GenerateFromPassword([]byte(password), p.cost)
	if err != nil {
		return "", fmt.Errorf("hash password: %w", err)
	}
	return string(h), nil
}

// Check reports whether password matches hash.
func (p *Passwords) Check(hash, password string) bool {
	return bcrypt.CompareHashAndPassword([]byte(hash), []byte(password)) == nil
}

// CheckNone spends the time of a Check on a password that matches nothing.
func (p *Passwords) CheckNone(password string) {
	_ = bcrypt.CompareHashAndPassword(p.dummy, []byte(password))
}
