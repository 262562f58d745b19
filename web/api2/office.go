package api2

// officeRoutes are this area's endpoints; see the package comment.
func (h *handlers) officeRoutes() []route { return nil }
