package app

import "github.com/fleetd/fleetd/app/model"

// DropUserOffice runs dropUserOffice as Core.DeleteUser is meant to: in
// one transaction, file content removed after it committed.
func (c *Core) DropUserOffice(userID int64) error {
	var dropped []model.TextID
	err := c.store.Update(func(tx model.Tx) (err error) {
		dropped, err = dropUserOffice(tx, userID)
		return err
	})
	if err == nil {
		c.Office.removeFileContent(dropped)
	}
	return err
}
