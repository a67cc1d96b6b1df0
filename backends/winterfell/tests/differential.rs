// placeholder created by the lead so the workspace parses; replace freely
