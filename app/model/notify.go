package model

import "time"

// What package notify keeps per user: the notification switches and the
// push tokens of the user's phones.

// PushToken is one registered device token.
type PushToken struct {
	Token string    `json:"token"`
	Added time.Time `json:"added"`
}

// NotifyTx is the notifier's part of a transaction.
type NotifyTx interface {
	// NotificationSettings are the switches userID stored, by
	// notification type (nil when none were stored).
	NotificationSettings(userID int64) (map[string]bool, error)
	PutNotificationSettings(userID int64, s map[string]bool) error
	DeleteNotificationSettings(userID int64) error
	// PushTokens are userID's tokens in the order given (nil when none).
	PushTokens(userID int64) ([]PushToken, error)
	// PutPushTokens replaces userID's tokens; none removes them. The store
	// keeps each token's owner: the user it was last put for, until it
	// leaves that user's list.
	PutPushTokens(userID int64, tokens []PushToken) error
	// PushTokenOwner is the user holding token (ok false when none).
	PushTokenOwner(token string) (userID int64, ok bool, err error)
	// PushTokenHolders are the users with tokens, in id order.
	PushTokenHolders() ([]int64, error)
}
