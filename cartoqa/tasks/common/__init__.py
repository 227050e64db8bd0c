"""What several tasks share: the build context, drawing, views, items, rules, the thematic base."""
