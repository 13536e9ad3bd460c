package betty

import "time"

// SetJobPolls sets how often WaitForJob reads the job without and with the event stream, for
// the tests of package betty_test; it answers a function that restores them.
func SetJobPolls(without, with time.Duration) (restore func()) {
	a, b := jobPollInterval, jobSafetyInterval
	jobPollInterval, jobSafetyInterval = without, with
	return func() { jobPollInterval, jobSafetyInterval = a, b }
}
