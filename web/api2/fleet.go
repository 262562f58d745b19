package api2

// fleetRoutes are this area's endpoints; see the package comment.
func (h *handlers) fleetRoutes() []route { return nil }
