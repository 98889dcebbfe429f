package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/asapjs/fiber-template/platform/token"
)

// devKeysFile holds the development signing key, beside devSecretFile:
// made once, so tokens and the published key survive the restarts of
// `task dev`. It is never read with APP_ENV=production.
const devKeysFile = "data/dev-jwt-signing-keys.pem"

// loadDevKeys returns the keys stored at path, creating the file with a
// new Ed25519 key (mode 0600) when it does not exist yet.
func loadDevKeys(path string) (*token.Keys, error) {
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		key, err := token.GenerateEd25519()
		if err != nil {
			return nil, err
		}
		err = writeNew(path, key)
		if errors.Is(err, fs.ErrExist) {
			return loadDevKeys(path)
		}
		if err != nil {
			return nil, fmt.Errorf("store development keys: %w", err)
		}
		data = key
	case err != nil:
		return nil, fmt.Errorf("read development keys: %w", err)
	}
	keys, err := token.ParseKeys(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w (delete it to make a new one)", path, err)
	}
	return keys, nil
}

// keysCommand runs api keys: generate prints a new key; list, rotate and
// retire read and edit a key file (-file, default JWT_SIGNING_KEYS_FILE,
// else the development keys).
//
//	api keys generate        a new Ed25519 key, PEM, on standard output
//	api keys list            the kids of the file, the signing key first
//	api keys rotate          put a new key first: it signs from the next
//	                         start, the others keep verifying
//	api keys retire KID      remove a key that no longer signs: its tokens
//	                         stop verifying
func keysCommand(args []string, getenv func(string) string, out io.Writer) error {
	if len(args) == 0 {
		return errors.New("keys needs a subcommand: generate, list, rotate or retire (api --help lists them)")
	}
	sub, args := args[0], args[1:]
	if sub == "generate" {
		if len(args) > 0 {
			return fmt.Errorf("keys generate takes no arguments, got %q", args)
		}
		key, err := token.GenerateEd25519()
		if err != nil {
			return err
		}
		_, err = out.Write(key)
		return err
	}
	fset := flag.NewFlagSet("keys "+sub, flag.ContinueOnError)
	fset.SetOutput(io.Discard)
	file := fset.String("file", "", "the key file")
	flags, kids := splitKeyArgs(args)
	if err := fset.Parse(flags); err != nil {
		return fmt.Errorf("keys %s: %w", sub, err)
	}
	if *file == "" {
		*file = getenv("JWT_SIGNING_KEYS_FILE")
	}
	if *file == "" {
		*file = devKeysFile
	}
	blocks, err := readKeyBlocks(*file)
	if err != nil {
		return err
	}
	switch {
	case sub == "list" && len(kids) == 0:
	case sub == "rotate" && len(kids) == 0:
		key, err := token.GenerateEd25519()
		if err != nil {
			return err
		}
		blocks = append([][]byte{key}, blocks...)
	case sub == "retire" && len(kids) == 1:
		ids, err := blockIDs(blocks)
		if err != nil {
			return err
		}
		i := slices.Index(ids, kids[0])
		switch {
		case i < 0:
			return fmt.Errorf("keys retire: %s has no key %q; it has %v", *file, kids[0], ids)
		case i == 0:
			return fmt.Errorf("keys retire: %q is the signing key; rotate first, and retire it once its tokens expired", kids[0])
		}
		blocks = slices.Delete(blocks, i, i+1)
	default:
		return fmt.Errorf("unknown keys command %q with %d arguments (api --help lists them)", sub, len(kids))
	}
	ids, err := blockIDs(blocks)
	if err != nil {
		return err
	}
	if sub != "list" {
		if err := writeFileAtomic(*file, bytes.Join(blocks, nil)); err != nil {
			return err
		}
	}
	for i, id := range ids {
		role := "verifies"
		if i == 0 {
			role = "signs"
		}
		fmt.Fprintf(out, "%s\t%s\n", id, role)
	}
	return nil
}

// readKeyBlocks reads the PEM keys of a key file, one block each.
func readKeyBlocks(path string) ([][]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("keys: %w", err)
	}
	if _, err := token.ParseKeys(data); err != nil {
		return nil, fmt.Errorf("keys: %s: %w", path, err)
	}
	var blocks [][]byte
	for {
		start := bytes.Index(data, []byte("-----BEGIN "))
		end := bytes.Index(data, []byte("-----END "))
		if start < 0 || end < 0 {
			return blocks, nil
		}
		stop := end + bytes.IndexByte(data[end:], '\n') + 1
		if stop <= end {
			stop = len(data)
		}
		blocks = append(blocks, data[start:stop])
		data = data[stop:]
	}
}

// blockIDs are the kids of the keys, in order.
func blockIDs(blocks [][]byte) ([]string, error) {
	keys, err := token.ParseKeys(bytes.Join(blocks, nil))
	if err != nil {
		return nil, fmt.Errorf("keys: %w", err)
	}
	return keys.IDs(), nil
}

// writeFileAtomic replaces path with data (mode 0600) through a temporary
// file in its directory, so a reader never sees half a key list.
func writeFileAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".keys-*")
	if err != nil {
		return fmt.Errorf("keys: %w", err)
	}
	defer os.Remove(f.Name())
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return fmt.Errorf("keys: %w", err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("keys: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("keys: %w", err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("keys: %w", err)
	}
	return nil
}

// splitKeyArgs splits the arguments of a keys command into its flags
// (-file, before or after the kid) and the rest. A kid is base64url, so it
// may begin with "-": anything that is not -file or a help flag is an
// argument, and "--" ends the flags.
func splitKeyArgs(args []string) (flags, rest []string) {
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--":
			return flags, append(rest, args[i+1:]...)
		case a == "-file" || a == "--file":
			flags = append(flags, args[i:min(i+2, len(args))]...)
			i++
		case strings.HasPrefix(a, "-file=") || strings.HasPrefix(a, "--file=") || a == "-h" || a == "-help" || a == "--help":
			flags = append(flags, a)
		default:
			rest = append(rest, a)
		}
	}
	return flags, rest
}
