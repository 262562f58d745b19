package api2

import "github.com/gofiber/fiber/v2"

// fleetRoutes are spec sections M (devices with installation records), E2
// (extended events), I (analytics) and J (computed mileage), plus the
// payments I2 reads; see docs/fleet.md.
func (h *handlers) fleetRoutes() []route {
	post, put, get, del := fiber.MethodPost, fiber.MethodPut, fiber.MethodGet, fiber.MethodDelete
	return []route{
		{get, "/devices", session, h.listInstalled},
		{post, "/devices", session, h.installDevice},
		{get, "/devices/drivers", session, h.deviceDrivers},
		{get, "/devices/check-imei/:imei_number", session, h.checkIMEI},
		{get, "/devices/last-stop/:deviceId", session, h.lastStop},
		{put, "/devices/:deviceId", session, h.updateInstalled},
		{del, "/devices/:deviceId", session, h.deleteInstallation},

		{get, "/events", session, h.extendedEvents},

		{get, "/analytics/device/alerts", session, h.alarmAnalytics},
		{get, "/analytics/payment/overview", session, h.paymentOverview},

		{get, "/payments", session, h.listPayments},
		{post, "/payments", session, h.createPayment},
		{get, "/payments/:paymentId", session, h.getPayment},
		{put, "/payments/:paymentId", session, h.updatePayment},
		{del, "/payments/:paymentId", session, h.deletePayment},

		{post, "/computed/mileage", session, h.connectMileage},
	}
}

// The spec's messages of this area.
const (
	msgDeviceAdded    = "Device added successfully."
	msgIMEIFree       = "IMEI not used."
	msgIMEITaken      = "IMEI already used"
	msgMileage        = "Mileage Connected!"
	msgRequestsFailed = "Some requests failed"
	msgPaymentDeleted = "Payment deleted"
)
