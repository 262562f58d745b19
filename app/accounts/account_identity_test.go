package accounts

import "testing"

func TestParseIdentifier(t *testing.T) {
	for _, c := range []struct {
		in    string
		want  string
		phone bool
		ok    bool
	}{
		{"Alice@Example.com", "alice@example.com", false, true},
		{" +1 (555) 000-1 ", "+15550001", true, true},
		{"030.1234", "0301234", true, true},
		{"12345", "", true, false},             // too short
		{"+1234567890123456", "", true, false}, // 16 digits
		{"12+34567", "", true, false},          // + only in front
		{"555-CALL-NOW", "", true, false},
		{"not an@address", "", false, false},
		{"Alice <alice@example.com>", "", false, false},
		{"@", "", false, false},
	} {
		id, err := ParseIdentifier(c.in)
		if (err == nil) != c.ok || (c.ok && (id.Value != c.want || id.Phone != c.phone)) {
			t.Errorf("ParseIdentifier(%q) = %+v, %v", c.in, id, err)
		}
	}
}

func TestIdentifierOf(t *testing.T) {
	if _, err := identifierOf(" ", ""); err != ErrIdentifierRequired {
		t.Errorf("empty: %v", err)
	}
	if id, err := identifierOf("a@b.example", "+15550001"); err != nil || id.Phone {
		t.Errorf("both given: %+v %v (e-mail wins)", id, err)
	}
	if _, err := identifierOf("+15550001", ""); err == nil {
		t.Error("a phone in the email field was accepted")
	}
	if _, err := identifierOf("", "a@b.example"); err == nil {
		t.Error("an e-mail in the phone field was accepted")
	}
}
