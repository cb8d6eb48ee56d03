print("navscript")
