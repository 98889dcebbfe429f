package database

// countStack is how much stack growStack asks for: with what the
// goroutine holds already and the runtime's guard, it grows a new
// goroutine's stack to 8 KB, which a count through database/sql and pgx
// (26 frames deep) fits in.
const countStack = 6 << 10

// growStack grows the calling goroutine's stack, in one step, to hold
// countStack bytes more. A goroutine starts on a small stack (the
// running average of the program's), and the runtime grows it by
// copying it to one twice the size, adjusting every frame: a count run
// beside the page grew twice, 2 to 4 KB at database/sql's connection and
// 4 to 8 KB in pgx's read, 26 frames deep: 12 µs of CPU a request, a
// third of the count goroutine's (profiles of bench/dbscale's
// BenchmarkRequest). Called first, while the goroutine is one frame deep,
// the one copy costs about 1 µs.
//
//go:noinline
func growStack() {
	var frame [countStack]byte
	keep(frame[:])
}

// keep is a call the compiler cannot see through, so that growStack's
// frame is kept.
//
//go:noinline
func keep([]byte) {}
