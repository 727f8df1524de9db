enum ServicePlaceholder {}
