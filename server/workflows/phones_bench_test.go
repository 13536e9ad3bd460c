package workflows

import (
	"bytes"
	"encoding/csv"
	"testing"
)

// Reading the contacts import benchmark's rows into contacts, without the database: the
// normaliser's share of an import (number, region, time zone and kind).
func BenchmarkContactRows(b *testing.B) {
	rows, err := csv.NewReader(bytes.NewReader(benchCSV(benchRows))).ReadAll()
	if err != nil {
		b.Fatal(err)
	}
	cols := []column{colPhone, colFirstName, colLastName, colEmail, colStage, colExtra}
	names := rows[0]
	rows = rows[1:]
	b.ResetTimer()
	for b.Loop() {
		p := newPhones(DefaultRegion)
		for _, rec := range rows {
			contactFromRow(rec, cols, names, p)
		}
	}
	b.ReportMetric(float64(b.N*len(rows))/b.Elapsed().Seconds(), "rows/s")
}
