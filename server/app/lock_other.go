//go:build !unix

package app

// lockDataDir cannot lock a directory here: nothing is locked, and jobs left running by a
// crash wait for River's rescue (jobs.Config.RescueStuckJobsAfter) instead of starting again
// at once.
func lockDataDir(string) (release func(), exclusive bool, err error) { return func() {}, false, nil }
