package app

import "strconv"

// The spec's account-access answers (section Errors), word for word.
var (
	ErrServerNotRunning = &Error{Kind: KindForbidden, Message: "Server not running!",
		Description: "The server is in maintenance mode; try again later"}

	ErrOTPRequired  = &Error{Kind: KindInvalid, Message: "OTP & Identifier are required!"}
	ErrOTPInvalid   = &Error{Kind: KindInvalid, Message: "Invalid OTP!"}
	ErrOTPExpired   = &Error{Kind: KindInvalid, Message: "OTP has expired!"}
	ErrLoginMissing = &Error{Kind: KindInvalid, Message: "Identifier & password are required!"}

	ErrLoginAmbiguous = &Error{Kind: KindInvalid, Message: "Multiple users found!",
		Description: "Multiple users found with same credentials please use another method!"}
	ErrLoginFailed = &Error{Kind: KindUnauthorized, Message: "Login failed!",
		Description: "Invalid Credentials!"}
	ErrLoginUnknown = &Error{Kind: KindNotFound, Message: "Credentials error!",
		Description: "Please use the e-mail address or phone number you registered with as the identifier!"}

	ErrIdentifierRequired = &Error{Kind: KindInvalid, Message: "Email or phone number is required!"}
	ErrUserNotFound       = &Error{Kind: KindNotFound, Message: "User not found!"}
	ErrResetAmbiguous     = &Error{Kind: KindInvalid, Message: "Multiple users found!",
		Description: "These credentials are used by multiple users, please use another method!"}

	ErrResetMissing      = &Error{Kind: KindInvalid, Message: "Token and identifier are required!"}
	ErrTokenInvalid      = &Error{Kind: KindInvalid, Message: "Invalid Token!"}
	ErrTokenExpired      = &Error{Kind: KindInvalid, Message: "Token has expired!"}
	ErrTokenUnauthorized = &Error{Kind: KindUnauthorized, Message: "Unauthorized token!"}

	ErrAccountExists       = &Error{Kind: KindInvalid, Message: "Account already exists!"}
	ErrRegistrationMissing = &Error{Kind: KindInvalid, Message: "token, fullName & password are required!"}
	ErrDemoMissing         = &Error{Kind: KindInvalid, Message: "Phone number and Full name is required!"}

	ErrRegistrationClosed = &Error{Kind: KindForbidden, Message: "Registration is disabled",
		Description: "An administrator must switch registration on in the server settings"}
	ErrOTPNotSent = &Error{Kind: KindUnavailable, Message: "Failed to send OTP!",
		Description: "The code could not be delivered; check the address or try again later"}
	ErrPasswordMismatch = &Error{Kind: KindUnauthorized, Message: "Invalid password!",
		Description: "The password does not match this account"}
)

// errTooManyOTPs answers a caller over the OTP send budget.
var errTooManyOTPs = &Error{Kind: KindTooMany, Message: "Too many requests",
	Description: "Too many codes were requested, try again later"}

// errCooldown answers a resend inside the cool-down.
func errCooldown(wait int) *Error {
	return &Error{Kind: KindTooMany, Message: "Too many requests",
		Description: "A code was sent moments ago; wait " + strconv.Itoa(wait) + " seconds before asking for another"}
}
