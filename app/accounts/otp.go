package accounts

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"golang.org/x/crypto/bcrypt"
)

// otpRecord is one pending OTP. Only its bcrypt hash is stored: six
// digits are a million guesses, which a plain hash of a copied database
// would give away in a second.
type otpRecord struct {
	model.Base
	Key        string    `json:"key"`
	Purpose    string    `json:"purpose"`
	Identifier string    `json:"identifier"`
	UserID     int64     `json:"userId,omitempty"`
	Name       string    `json:"name,omitempty"` // demo_auth: the full name given to A7
	Hash       string    `json:"hash"`
	Sent       time.Time `json:"sent"`
	Expires    time.Time `json:"expires"`
	Tries      int       `json:"tries"`
}

const (
	otpTable = "otps"
	otpKeys  = "otpKeys" // otpKey(purpose, subject) -> otp id
)

func otps(tx model.Tx) model.Table[otpRecord] {
	return model.RecordTable[otpRecord](tx, otpTable, "OTP")
}

// otpKey binds an OTP to its purpose and subject (the identifier, or for
// the update purposes the user and the new value).
func otpKey(purpose, subject string) string { return purpose + "\x00" + subject }

// newOTP returns six random digits.
func newOTP() (string, error) {
	n, err := rand.Int(rand.Reader, big.NewInt(1_000_000))
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%06d", n.Int64()), nil
}

// withOTPBudget runs send, a request that may send an OTP, within the
// budget of the caller's address and the accounts it concerns. Every such
// request counts, sent or not, which also bounds probing for accounts;
// one that sent nothing because of the resend cool-down or a failed
// delivery is given back, so an impatient user or a mail outage does not
// use the budget up.
func (acc *Service) withOTPBudget(ip string, accounts []string, send func() error) error {
	if err := acc.otpSends.Take(ip, accounts...); err != nil {
		return err
	}
	err := send()
	if model.ClassOf(err) == model.ClassTooMany || errors.Is(err, ErrOTPNotSent) {
		acc.otpSends.Refund(ip, accounts...)
	}
	return err
}

// issueOTP stores a fresh OTP for rec's purpose and subject (replacing a
// pending one unless it was sent within the cool-down) and delivers it to
// to. A failed delivery removes the OTP again so the caller may retry.
func (acc *Service) issueOTP(rec otpRecord, to Identifier) error {
	code, err := newOTP()
	if err != nil {
		return err
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(code), acc.bcryptCost)
	if err != nil {
		return err
	}
	now := acc.now().UTC()
	rec.Hash, rec.Sent, rec.Expires = string(hash), now, now.Add(acc.opts.OTPTTL)
	err = acc.store.Update(func(tx model.Tx) error {
		keys := tx.Keys(otpKeys)
		if id, ok, err := keys.Get(rec.Key); err != nil {
			return err
		} else if ok {
			old, err := otps(tx).Get(id)
			if err != nil && model.ClassOf(err) != model.ClassNotFound {
				return err
			}
			if old != nil && now.Sub(old.Sent) < acc.opts.ResendCooldown {
				wait := acc.opts.ResendCooldown - now.Sub(old.Sent)
				return errCooldown(int(wait.Seconds()) + 1)
			}
			if old != nil {
				if err := otps(tx).Delete(id); err != nil {
					return err
				}
			}
		}
		if err := pruneOTPs(tx, now); err != nil {
			return err
		}
		if err := otps(tx).Create(&rec); err != nil {
			return err
		}
		return keys.Put(rec.Key, rec.ID)
	})
	if err != nil {
		return err
	}
	if err := acc.deliver(to, "Your fleetd code", "Your fleetd verification code is "+code+
		". It expires in "+strconv.Itoa(int(acc.opts.OTPTTL.Minutes()))+" minutes."); err != nil {
		acc.log.Error("OTP delivery failed", "purpose", rec.Purpose, "to", to.Value, "err", err)
		if derr := acc.store.Update(func(tx model.Tx) error { return dropOTP(tx, rec.Key, rec.ID) }); derr != nil {
			acc.log.Error("removing an undelivered OTP", "err", derr)
		}
		return ErrOTPNotSent
	}
	return nil
}

// deliver sends text over the channel the identifier belongs to, bounded
// by the send timeout.
func (acc *Service) deliver(to Identifier, subject, text string) error {
	ctx, cancel := context.WithTimeout(context.Background(), acc.opts.SendTimeout)
	defer cancel()
	s := acc.opts.Mail
	if to.Phone {
		s = acc.opts.SMS
	}
	return s.Send(ctx, to.Value, subject, text)
}

// dropOTP removes the OTP under key when it is still the one with id.
func dropOTP(tx model.Tx, key string, id int64) error {
	keys := tx.Keys(otpKeys)
	cur, ok, err := keys.Get(key)
	if err != nil || !ok || cur != id {
		return err
	}
	if err := keys.Delete(key); err != nil {
		return err
	}
	err = otps(tx).Delete(id)
	if model.ClassOf(err) == model.ClassNotFound {
		err = nil
	}
	return err
}

// pruneOTPs removes expired OTPs and tokens, so abandoned flows leave
// nothing behind. Both collections hold only minutes' worth of records.
func pruneOTPs(tx model.Tx, now time.Time) error {
	var stale []otpRecord
	err := otps(tx).List(func(r *otpRecord) bool {
		if now.After(r.Expires) {
			stale = append(stale, *r)
		}
		return true
	})
	if err != nil {
		return err
	}
	for _, r := range stale {
		if err := dropOTP(tx, r.Key, r.ID); err != nil {
			return err
		}
	}
	return pruneTokens(tx, now)
}

// checkOTP verifies code against the OTP under key and consumes it on
// success. A wrong code counts a try; after OTPMaxTries the OTP is gone.
// bcrypt runs outside the write transaction, so a slow hash holds no lock.
func (acc *Service) checkOTP(key, code string) (*otpRecord, error) {
	var rec *otpRecord
	err := acc.store.View(func(tx model.Tx) error {
		id, ok, err := tx.Keys(otpKeys).Get(key)
		if err != nil || !ok {
			return model.FirstError(err, ErrOTPInvalid)
		}
		rec, err = otps(tx).Get(id)
		if model.ClassOf(err) == model.ClassNotFound {
			return ErrOTPInvalid
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	now := acc.now()
	if now.After(rec.Expires) {
		return nil, model.FirstError(acc.store.Update(func(tx model.Tx) error { return dropOTP(tx, key, rec.ID) }), ErrOTPExpired)
	}
	right := bcrypt.CompareHashAndPassword([]byte(rec.Hash), []byte(code)) == nil
	// A wrong code's try must be committed, so its answer is returned
	// after the transaction, not from it (which would roll it back).
	var answer error
	err = acc.store.Update(func(tx model.Tx) error {
		cur, err := otps(tx).Get(rec.ID)
		if model.ClassOf(err) == model.ClassNotFound {
			answer = ErrOTPInvalid // used or replaced meanwhile
			return nil
		}
		if err != nil {
			return err
		}
		if right {
			return dropOTP(tx, key, rec.ID)
		}
		answer = ErrOTPInvalid
		if cur.Tries++; cur.Tries >= acc.opts.OTPMaxTries {
			answer = &model.Error{Class: model.ClassInvalid, Message: ErrOTPInvalid.Message,
				Description: "Too many wrong codes: request a new one"}
			return dropOTP(tx, key, rec.ID)
		}
		return otps(tx).Put(cur)
	})
	if err = model.FirstError(err, answer); err != nil {
		return nil, err
	}
	return rec, nil
}
