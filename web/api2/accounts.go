package api2

// accountsRoutes are this area's endpoints; see the package comment.
func (h *handlers) accountRoutes() []route { return nil }
