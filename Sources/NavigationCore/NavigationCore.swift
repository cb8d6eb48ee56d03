// NavigationCore: the headless navigation core. (placeholder)
