package calls

import (
	"context"
	"time"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/errs"
)

// MaxStatisticsDays is the longest range of days counted at once.
const MaxStatisticsDays = 366

// DayCount is the number of calls that started on a day.
type DayCount struct {
	Date  time.Time // midnight of the day, in the zone asked
	Count int
}

// Statistics is a team's calls per day over a range of days, both ends included.
type Statistics struct {
	Start, End time.Time
	Total      int
	Days       []DayCount
}

// Statistics counts the team's calls per day of zone (an IANA name; UTC when empty) from
// start to end, both included (nil: end is today, start 6 days before end). Every day of the
// range is answered, with 0 when there was no call.
func (s *Service) Statistics(ctx context.Context, a auth.Actor, start, end *time.Time, zone string) (Statistics, error) {
	if zone == "" {
		zone = "UTC"
	}
	loc, err := time.LoadLocation(zone)
	if err != nil || zone == "Local" {
		return Statistics{}, errs.InvalidField("query.timeZone", "timeZone must be an IANA time zone, such as Europe/Paris.")
	}
	day := func(t time.Time) time.Time { return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, loc) }
	last := day(s.now().In(loc))
	if end != nil {
		last = day(*end)
	}
	first := last.AddDate(0, 0, -6)
	if start != nil {
		first = day(*start)
	}
	if first.After(last) {
		return Statistics{}, errs.InvalidField("query.startDate", "startDate must not be after endDate.")
	}
	if first.AddDate(0, 0, MaxStatisticsDays).Before(last.AddDate(0, 0, 1)) {
		return Statistics{}, errs.InvalidField("query.startDate", "The range may cover at most 366 days.")
	}
	starts, err := s.db.CallStarts(ctx, a.OrganizationID, first, last.AddDate(0, 0, 1))
	if err != nil {
		return Statistics{}, err
	}
	counts := make(map[string]int, len(starts))
	for _, c := range starts {
		counts[c.StartTime.In(loc).Format(time.DateOnly)]++
	}
	out := Statistics{Start: first, End: last}
	for d := first; !d.After(last); d = d.AddDate(0, 0, 1) {
		n := counts[d.Format(time.DateOnly)]
		out.Days = append(out.Days, DayCount{Date: d, Count: n})
		out.Total += n
	}
	return out, nil
}
