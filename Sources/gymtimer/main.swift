print("gymtimer")
