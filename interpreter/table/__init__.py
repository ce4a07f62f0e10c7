"""What a person sees and plays at: the presentation model, text and SVG pictures, narration, the terminal and web tables, records."""
