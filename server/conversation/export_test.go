package conversation

// LineOf is lineOf, for the tests.
var LineOf = lineOf
