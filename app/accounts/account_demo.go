package accounts

import "github.com/fleetd/fleetd/app/model"

// demoKeys maps a verified phone to its demo account.
const demoKeys = "demoUsers"

// demoUser finds or creates the demo account of a verified demo_auth OTP:
// read-only, devices read-only, commands limited, expiring after DemoTTL,
// with a random password nobody knows. An administrator hands out
// credentials by setting its password (fleetd user passwd, or PUT
// /api/users/{id}) and linking demo devices to it; see docs/accounts.md.
func (acc *Service) demoUser(rec *otpRecord) (int64, error) {
	var id int64
	err := acc.store.View(func(tx model.Tx) error {
		got, ok, err := tx.Keys(demoKeys).Get(rec.Identifier)
		if err != nil || !ok {
			return err
		}
		if _, err := tx.Users().Get(got); err == nil {
			id = got
		} else if model.ClassOf(err) != model.ClassNotFound {
			return err
		}
		return nil
	})
	if err != nil || id != 0 {
		return id, err
	}
	password, err := RandomPassword(24)
	if err != nil {
		return 0, err
	}
	email := placeholderEmail("demo-", rec.Identifier)
	expires := acc.now().UTC().Add(acc.opts.DemoTTL)
	u, err := acc.CreateUser(model.System(), func(u *model.User) error {
		u.Name, u.Email, u.Phone, u.Password = rec.Name, email, rec.Identifier, password
		u.Readonly, u.DeviceReadonly, u.LimitCommands = true, true, true
		u.ExpirationTime = &expires
		u.Attributes = model.Attributes{"demo": true}
		return nil
	})
	if model.ClassOf(err) == model.ClassConflict { // the key was lost but the account is there
		err = acc.store.View(func(tx model.Tx) (err error) { u, err = tx.UserByEmail(email); return err })
	}
	if err != nil {
		return 0, err
	}
	acc.log.Info("demo account ready: set its password to hand out credentials", "userId", u.ID,
		"email", u.Email, "phone", u.Phone, "expires", u.ExpirationTime)
	return u.ID, acc.store.Update(func(tx model.Tx) error { return tx.Keys(demoKeys).Put(rec.Identifier, u.ID) })
}
