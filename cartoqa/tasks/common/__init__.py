"""What several tasks share: the build context, drawing, views, items, prompts and rules."""
