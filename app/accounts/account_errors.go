package accounts

import (
	"strconv"

	"github.com/fleetd/fleetd/app/model"
)

// The spec's account-access answers (section Errors), word for word.
var (
	ErrServerNotRunning = &model.Error{Class: model.ClassForbidden, Message: "Server not running!",
		Description: "The server is in maintenance mode; try again later"}

	ErrOTPRequired  = &model.Error{Class: model.ClassInvalid, Message: "OTP & Identifier are required!"}
	ErrOTPInvalid   = &model.Error{Class: model.ClassInvalid, Message: "Invalid OTP!"}
	ErrOTPExpired   = &model.Error{Class: model.ClassInvalid, Message: "OTP has expired!"}
	ErrLoginMissing = &model.Error{Class: model.ClassInvalid, Message: "Identifier & password are required!"}

	ErrLoginAmbiguous = &model.Error{Class: model.ClassInvalid, Message: "Multiple users found!",
		Description: "Multiple users found with same credentials please use another method!"}
	ErrLoginFailed = &model.Error{Class: model.ClassUnauthorized, Message: "Login failed!",
		Description: "Invalid Credentials!"}
	ErrLoginUnknown = &model.Error{Class: model.ClassNotFound, Message: "Credentials error!",
		Description: "Please use the e-mail address or phone number you registered with as the identifier!"}

	ErrIdentifierRequired = &model.Error{Class: model.ClassInvalid, Message: "Email or phone number is required!"}
	ErrUserNotFound       = &model.Error{Class: model.ClassNotFound, Message: "User not found!"}
	ErrResetAmbiguous     = &model.Error{Class: model.ClassInvalid, Message: "Multiple users found!",
		Description: "These credentials are used by multiple users, please use another method!"}

	ErrResetMissing      = &model.Error{Class: model.ClassInvalid, Message: "Token and identifier are required!"}
	ErrTokenInvalid      = &model.Error{Class: model.ClassInvalid, Message: "Invalid Token!"}
	ErrTokenExpired      = &model.Error{Class: model.ClassInvalid, Message: "Token has expired!"}
	ErrTokenUnauthorized = &model.Error{Class: model.ClassUnauthorized, Message: "Unauthorized token!"}

	ErrAccountExists       = &model.Error{Class: model.ClassInvalid, Message: "Account already exists!"}
	ErrRegistrationMissing = &model.Error{Class: model.ClassInvalid, Message: "token, fullName & password are required!"}
	ErrDemoMissing         = &model.Error{Class: model.ClassInvalid, Message: "Phone number and Full name is required!"}

	ErrRegistrationClosed = &model.Error{Class: model.ClassForbidden, Message: "Registration is disabled",
		Description: "An administrator must switch registration on in the server settings"}
	ErrOTPNotSent = &model.Error{Class: model.ClassUnavailable, Message: "Failed to send OTP!",
		Description: "The code could not be delivered; check the address or try again later"}
	ErrPasswordMismatch = &model.Error{Class: model.ClassUnauthorized, Message: "Invalid password!",
		Description: "The password does not match this account"}
)

// errTooManyOTPs answers a caller over the OTP send budget.
var errTooManyOTPs = &model.Error{Class: model.ClassTooMany, Message: "Too many requests",
	Description: "Too many codes were requested, try again later"}

// errCooldown answers a resend inside the cool-down.
func errCooldown(wait int) *model.Error {
	return &model.Error{Class: model.ClassTooMany, Message: "Too many requests",
		Description: "A code was sent moments ago; wait " + strconv.Itoa(wait) + " seconds before asking for another"}
}
